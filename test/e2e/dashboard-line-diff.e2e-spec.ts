/**
 * The dashboard's line diff (dashboard/src/line-diff.ts), which the Versions tab shows side by
 * side: a unit test of the module alone, no browser.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { diffLines, type DiffLine, sideBySide } from '../../dashboard/src/line-diff.js';

const lines = (script: DiffLine[], side: 'removed' | 'added') => script.filter((line) => line.kind === 'same' || line.kind === side).map((line) => line.text);

/** The longest common subsequence's length, the plain recursive way (small inputs only). */
function lcsLength(a: string[], b: string[]): number {
  const memo = new Map<string, number>();
  const go = (i: number, j: number): number => {
    if (i === a.length || j === b.length) return 0;
    const key = `${i},${j}`;
    if (!memo.has(key)) memo.set(key, a[i] === b[j] ? go(i + 1, j + 1) + 1 : Math.max(go(i + 1, j), go(i, j + 1)));
    return memo.get(key)!;
  };
  return go(0, 0);
}

describe('dashboard line diff', () => {
  it('marks the changed line of two pretty-printed definitions and keeps the rest side by side', () => {
    const before = ['{', '  "name": "Intake",', '  "statuses": ["Triage"],', '  "automations": {}', '}'].join('\n');
    const after = ['{', '  "name": "Intake v2",', '  "statuses": ["Triage"],', '  "automations": {},', '  "attributes": {}', '}'].join('\n');
    assert.deepEqual(sideBySide(diffLines(before, after)), [
      { kind: 'same', left: { number: 1, text: '{' }, right: { number: 1, text: '{' } },
      { kind: 'changed', left: { number: 2, text: '  "name": "Intake",' }, right: { number: 2, text: '  "name": "Intake v2",' } },
      { kind: 'same', left: { number: 3, text: '  "statuses": ["Triage"],' }, right: { number: 3, text: '  "statuses": ["Triage"],' } },
      { kind: 'changed', left: { number: 4, text: '  "automations": {}' }, right: { number: 4, text: '  "automations": {},' } },
      { kind: 'added', left: null, right: { number: 5, text: '  "attributes": {}' } },
      { kind: 'same', left: { number: 5, text: '}' }, right: { number: 6, text: '}' } },
    ]);
  });

  it('handles empty texts and identical texts', () => {
    assert.deepEqual(diffLines('', ''), []);
    assert.deepEqual(diffLines('', 'a\nb'), [{ kind: 'added', text: 'a' }, { kind: 'added', text: 'b' }]);
    assert.deepEqual(diffLines('a', ''), [{ kind: 'removed', text: 'a' }]);
    assert.deepEqual(sideBySide(diffLines('x\ny', 'x\ny')).map((row) => row.kind), ['same', 'same']);
  });

  it('is a shortest edit script: both texts come back from it, and it keeps as many lines as the longest common subsequence', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', '{', '}', ''), { maxLength: 12 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const [before, after] = [a.join('\n'), b.join('\n')];
        const script = diffLines(before, after);
        // An empty text has no lines (not one empty line).
        const linesOf = (text: string) => (text === '' ? [] : text.split('\n'));
        const left = linesOf(before);
        const right = linesOf(after);
        assert.deepEqual(lines(script, 'removed'), left);
        assert.deepEqual(lines(script, 'added'), right);
        assert.equal(script.filter((line) => line.kind === 'same').length, lcsLength(left, right));
        const rows = sideBySide(script);
        assert.deepEqual(rows.flatMap((row) => (row.left ? [row.left.text] : [])), left);
        assert.deepEqual(rows.flatMap((row) => (row.right ? [row.right.text] : [])), right);
        assert.deepEqual(rows.flatMap((row) => (row.left ? [row.left.number] : [])), left.map((_, n) => n + 1));
      }),
      { numRuns: 500 },
    );
  });
});
