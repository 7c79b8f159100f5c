import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/**
 * A merge whose conflict was committed unresolved leaves its markers in a file: the compiler
 * catches that in code, nothing catches it in the docs people read.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const SEARCHED = ['src', 'test', 'dashboard', 'docs', 'scripts', 'examples', 'README.md', 'Dockerfile', 'package.json'];
const SKIPPED = new Set(['node_modules', 'build', 'dist']);
const MARKER = /^(<{7}|>{7}) /m;

function filesUnder(path: string): string[] {
  if (!statSync(path, { throwIfNoEntry: false })) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => (SKIPPED.has(name) ? [] : filesUnder(join(path, name))));
}

describe('merge leftovers', () => {
  it('no file holds a conflict marker', () => {
    const marked = SEARCHED.flatMap((entry) => filesUnder(join(root, entry)))
      .filter((file) => MARKER.test(readFileSync(file, 'latin1')))
      .map((file) => relative(root, file));
    assert.deepEqual(marked, []);
  });
});
