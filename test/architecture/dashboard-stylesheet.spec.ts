import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

/**
 * The dashboard's stylesheet is written flat: a rule inside a style rule only inside an at-rule
 * (@media, @supports ...). A merge that loses a rule's closing brace still builds, because
 * browsers read what follows as nested rules, which then match nothing: every later rule is
 * silently gone (it once took the Builder's phone layout with it).
 */

const STYLESHEET = new URL('../../../dashboard/src/styles.css', import.meta.url);

/** Each `{` opened inside a style rule, as "line N: selector inside line M: selector", and the braces left open at the end. */
function nestingProblems(css: string): string[] {
  const problems: string[] = [];
  const open: { line: number; prelude: string }[] = [];
  let line = 1;
  let prelude = '';
  for (let i = 0; i < css.length; i++) {
    const c = css[i]!;
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      const comment = css.slice(i, end < 0 ? css.length : end + 2);
      line += comment.split('\n').length - 1;
      i += comment.length - 1;
      continue;
    }
    if (c === '\n') line++;
    if (c === '{') {
      const block = { line, prelude: prelude.trim() };
      const parent = open.at(-1);
      if (parent && !parent.prelude.startsWith('@')) problems.push(`line ${block.line}: ${block.prelude} inside line ${parent.line}: ${parent.prelude}`);
      open.push(block);
      prelude = '';
    } else if (c === '}') {
      open.pop();
      prelude = '';
    } else if (c === ';') {
      prelude = '';
    } else {
      prelude += c;
    }
  }
  return [...problems, ...open.map((block) => `line ${block.line}: ${block.prelude} is never closed`)];
}

describe('the dashboard stylesheet', () => {
  it('nests no rule inside a style rule and closes every block', () => {
    assert.deepEqual(nestingProblems(readFileSync(STYLESHEET, 'utf8')), []);
  });

  it('finds a rule whose closing brace a merge lost', () => {
    assert.deepEqual(nestingProblems('.a {\n  color: red;\n\n.b {\n  color: blue;\n}\n'), ['line 4: .b inside line 1: .a', 'line 1: .a is never closed']);
  });
});
