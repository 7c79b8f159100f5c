import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/**
 * README.md is the front door: what the service is, the two commands, the architecture in a
 * paragraph, and links to docs/, where the rest lives. It fits on a few screens, and no link in
 * it or in docs/ leads to a file that moved away.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_README_LINES = 250;

const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The targets of a document's Markdown links to files of the checkout (not URLs, not anchors of the same page). */
function fileLinks(document: string): string[] {
  const text = readFileSync(join(root, document), 'utf8');
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)].map((link) => link[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe('the front door', () => {
  it(`README.md is at most ${MAX_README_LINES} lines`, () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    assert.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines`);
  });

  it('every link of README.md and docs/*.md to a file of the checkout finds it', () => {
    const broken = documents.flatMap((document) =>
      fileLinks(document)
        .filter((target) => !existsSync(join(root, dirname(document), target)))
        .map((target) => `${document} -> ${relative(root, join(root, dirname(document), target))}`),
    );
    assert.deepEqual(broken, []);
  });
});
