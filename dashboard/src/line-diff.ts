/**
 * A line diff of two texts (two versions of a definition, pretty-printed): the longest common
 * subsequence of their lines, laid out as rows of a side-by-side view. Definitions are a few
 * hundred lines, so the quadratic table is small; past `MAX_CELLS` the texts are shown as one
 * block removed and one block added rather than hold the browser.
 */

export type DiffKind = 'same' | 'removed' | 'added' | 'changed';

/** One row of the side-by-side view: the left line, the right line, or both (null: no line on that side). */
export interface DiffRow {
  kind: DiffKind;
  left: { number: number; text: string } | null;
  right: { number: number; text: string } | null;
}

/** One line of an edit script: kept, only in the old text, or only in the new one. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

const MAX_CELLS = 4_000_000;

/** The edit script from `before` to `after`, line by line, with removals listed before the additions that replace them. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  // Lines shared at both ends need no table.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((text): DiffLine => ({ kind: 'same', text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ kind: 'same', text }));
  return [...head, ...middle(a.slice(start, endA), b.slice(start, endB)), ...tail];
}

function middle(a: string[], b: string[]): DiffLine[] {
  const removed = a.map((text): DiffLine => ({ kind: 'removed', text }));
  const added = b.map((text): DiffLine => ({ kind: 'added', text }));
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_CELLS) return [...removed, ...added];
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const script: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      script.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      script.push(removed[i++]!);
    } else {
      script.push(added[j++]!);
    }
  }
  return [...script, ...removed.slice(i), ...added.slice(j)];
}

/**
 * The edit script as side-by-side rows: kept lines face each other, and a run of removals
 * followed by additions pairs up line by line as `changed` rows (the extra lines of the
 * longer side stay `removed` or `added`).
 */
export function sideBySide(script: DiffLine[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let leftNumber = 0;
  let rightNumber = 0;
  let k = 0;
  while (k < script.length) {
    if (script[k]!.kind === 'same') {
      const { text } = script[k++]!;
      rows.push({ kind: 'same', left: { number: ++leftNumber, text }, right: { number: ++rightNumber, text } });
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (k < script.length && script[k]!.kind === 'removed') removed.push(script[k++]!.text);
    while (k < script.length && script[k]!.kind === 'added') added.push(script[k++]!.text);
    for (let n = 0; n < Math.max(removed.length, added.length); n++) {
      const left = n < removed.length ? { number: ++leftNumber, text: removed[n]! } : null;
      const right = n < added.length ? { number: ++rightNumber, text: added[n]! } : null;
      rows.push({ kind: left && right ? 'changed' : left ? 'removed' : 'added', left, right });
    }
  }
  return rows;
}
