import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { validateEnv } from '../../shared/config/env.js';
import { loadExtensions } from './load-extensions.js';

/** Two modules on disk, as an operator's extensions would be: one default-exports a module class, one nothing. */
const dir = mkdtempSync(join(tmpdir(), 'extensions-'));
writeFileSync(join(dir, 'crm.mjs'), 'export default class CrmExtensionModule {}\n');
writeFileSync(join(dir, 'helpers.mjs'), 'export const helper = 1;\n');
/** A path from the working directory, as EXTENSIONS would name it. */
const fromHere = (name: string) => `./${relative(process.cwd(), join(dir, name))}`;

describe('EXTENSIONS', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loads each named module\'s default export, by path from the working directory', async () => {
    const loaded = await loadExtensions(` ${fromHere('crm.mjs')} , ${join(dir, 'crm.mjs')}`);
    assert.deepEqual(loaded.map((m) => (m as { name: string }).name), ['CrmExtensionModule', 'CrmExtensionModule']);
    assert.deepEqual(await loadExtensions(undefined), []);
  });

  it('refuses a module without a default export of a Nest module, naming it', async () => {
    await assert.rejects(loadExtensions(fromHere('helpers.mjs')), { message: `EXTENSIONS: ${fromHere('helpers.mjs')} has no default export of a Nest module` });
  });

  it('is validated as a list of module specifiers', () => {
    assert.equal(validateEnv({ ...process.env, EXTENSIONS: '@acme/jira-step, ./extensions/crm.js' }).EXTENSIONS, '@acme/jira-step, ./extensions/crm.js');
    assert.throws(() => validateEnv({ ...process.env, EXTENSIONS: 'a,,b' }), /EXTENSIONS must be comma-separated module specifiers/);
  });
});
