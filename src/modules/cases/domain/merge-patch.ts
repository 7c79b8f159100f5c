import { isPlainObject } from '../../../shared/json/json-text.js';

/**
 * A JSON merge patch (RFC 7396) applied to an object's members: a null removes its key, an
 * object merges into an object, anything else replaces. Answers the whole result, for the
 * schema check, and how it differs at the top level: the keys whose value is new (`set`) and
 * those removed, which is what storage applies to the stored text.
 */
export function applyMergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): { merged: Record<string, unknown>; set: Record<string, unknown>; removed: string[] } {
  const merged: Record<string, unknown> = { ...target };
  const set: Record<string, unknown> = {};
  const removed: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      if (Object.hasOwn(merged, key)) removed.push(key);
      delete merged[key];
      continue;
    }
    const next = isPlainObject(value) ? mergeValue(merged[key], value) : value;
    define(merged, key, next);
    define(set, key, next);
  }
  return { merged, set, removed };
}

function mergeValue(target: unknown, patch: Record<string, unknown>): Record<string, unknown> {
  const base: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else define(base, key, isPlainObject(value) ? mergeValue(base[key], value) : value);
  }
  return base;
}

/** As an assignment, but a key such as `__proto__` is a member like any other. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
