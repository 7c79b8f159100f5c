import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/** docs/configuration.md is generated from src/shared/config/env.ts; a change to either alone is drift. */
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('docs/configuration.md', () => {
  it('is what scripts/generate-configuration-doc.ts makes of env.ts today (npm run generate:configuration-doc)', () => {
    const generated = execFileSync(process.execPath, ['scripts/generate-configuration-doc.ts', '--print'], { cwd: root, encoding: 'utf8' });
    assert.equal(readFileSync(join(root, 'docs/configuration.md'), 'utf8'), generated);
  });
});
