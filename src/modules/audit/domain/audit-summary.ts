/**
 * The settings that differ between `before` and `after`, each as `{from, to}`; keys listed in
 * neither are not compared. Callers pass only non-secret fields.
 */
export function changedSettings(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

/**
 * The JSON Pointers (RFC 6901) of the parts of `after` that differ from `before`: the deepest
 * object member or array item where they part; a changed array length points at the array.
 */
export function changedPointers(before: unknown, after: unknown, at = ''): string[] {
  // One walk of both values: comparing serialized subtrees at every level would cost the
  // definition's size times its depth (1 MB, 64 levels).
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => changedPointers(before[key], after[key], `${at}/${escapePointer(key)}`));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, index) => changedPointers(item, after[index], `${at}/${index}`));
  }
  return before === after ? [] : [at];
}

/** A summary lists at most this many changed parts; the rest are only counted (`changed_omitted`). */
export const MAX_CHANGED_POINTERS = 100;
/** A longer pointer is shortened to the nearest part containing it that fits. */
export const MAX_POINTER_CHARS = 256;

/**
 * What a draft change's summary says changed: `changedPointers`, bounded in number and length, so
 * that a huge change (a definition may take 1 MB) costs an audit entry little to store and to read.
 */
export function changedParts(before: unknown, after: unknown): { changed: string[]; changed_omitted?: number } {
  const pointers = [...new Set(changedPointers(before, after).map(shortened))];
  if (pointers.length <= MAX_CHANGED_POINTERS) return { changed: pointers };
  return { changed: pointers.slice(0, MAX_CHANGED_POINTERS), changed_omitted: pointers.length - MAX_CHANGED_POINTERS };
}

function shortened(pointer: string): string {
  let fitting = pointer;
  while (fitting.length > MAX_POINTER_CHARS) fitting = fitting.slice(0, fitting.lastIndexOf('/'));
  return fitting;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
