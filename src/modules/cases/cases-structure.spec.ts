import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Specs run from build/; these rules are about the TypeScript sources.
const SRC = fileURLToPath(new URL('../../../../src/', import.meta.url));

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [{ path: relative(SRC, path), text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('cases: one way in', () => {
  const files = sources(SRC);

  it('only CreateCaseService opens a new case', () => {
    const opening = files.filter((f) => f.text.includes('Case.open(')).map((f) => f.path);
    assert.deepEqual(opening, [join('modules', 'cases', 'application', 'create-case.service.ts')]);
  });

  it('no module outside cases imports its application or infrastructure code', () => {
    const reaching = files.filter((f) => !f.path.startsWith(join('modules', 'cases')) && /\/cases\/(application|infrastructure)\//.test(f.text));
    assert.deepEqual(reaching.map((f) => f.path), []);
  });

  it('persistence uses TypeORM through its public API only', () => {
    const internals = files.filter((f) => /\.master\b|databaseConnection/.test(f.text)).map((f) => f.path);
    assert.deepEqual(internals, []);
  });
});
