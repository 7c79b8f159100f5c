import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Compiled to build/test/e2e/: the repository is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The proof column of the threat model and of the role matrix: each `file` named, followed by the quoted test names that stand in it. */
function proofs(): { row: string; file: string; names: string[] }[] {
  const doc = readFileSync(join(root, 'docs/security.md'), 'utf8');
  const section = (title: string) => doc.slice(doc.indexOf(title), doc.indexOf('\n## ', doc.indexOf(title) + 1));
  const table = section('## Threat model') + section('## Roles and capabilities');
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| asset') && !line.startsWith('| capability') && !line.startsWith('| -'));
  return rows.flatMap((row) => {
    const proof = row.split(' | ').at(-1)!;
    // `file` › "name", "name"; `other` …: a name belongs to the file named before it.
    return proof.split(/;\s*/).flatMap((part) => {
      const file = /`([^`]+\.ts)`/.exec(part)?.[1];
      if (!file) return [];
      const names = [...part.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.replace(/\s*…$/, '').replace(/:\s*$/, ''));
      return [{ row: row.slice(0, 60), file, names }];
    });
  });
}

describe('docs/security.md', () => {
  it('every threat model and role matrix row names a test file that exists, and every test name it quotes stands in that file', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('test')];
    const named = proofs();
    assert.ok(named.length >= 20, `the threat model names ${named.length} proofs`);
    const problems = named.flatMap(({ row, file, names }) => {
      const matches = files.filter((path) => path.endsWith(file) || basename(path) === basename(file));
      if (matches.length !== 1) return [`${row}: ${file} names ${matches.length} files`];
      const text = readFileSync(join(root, matches[0]!), 'utf8').replaceAll("\\'", "'");
      return names.filter((name) => !text.includes(name)).map((name) => `${row}: "${name}" is not a test in ${file}`);
    });
    assert.deepEqual(problems, []);
  });
});
