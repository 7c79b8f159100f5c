import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { validateEnv } from '../../shared/config/env.js';
import { loadExtensions } from './load-extensions.js';

/** The built example extension, as a path from the working directory (as an operator would write it). */
const example = relative(process.cwd(), fileURLToPath(new URL('../../../examples/ticket-extension/src/ticket-extension.module.js', import.meta.url)));

describe('EXTENSIONS', () => {
  it('loads each named module\'s default export', async () => {
    const { TicketExtensionModule } = await import('../../../examples/ticket-extension/src/ticket-extension.module.js');
    assert.deepEqual(await loadExtensions(` ./${example} `), [TicketExtensionModule]);
    assert.deepEqual(await loadExtensions(undefined), []);
  });

  it('refuses a module without a default export of a Nest module, naming it', async () => {
    const noDefault = relative(process.cwd(), fileURLToPath(new URL('./load-extensions.js', import.meta.url)));
    await assert.rejects(loadExtensions(`./${noDefault}`), { message: `EXTENSIONS: ./${noDefault} has no default export of a Nest module` });
  });

  it('is validated as a list of module specifiers', () => {
    assert.equal(validateEnv({ ...process.env, EXTENSIONS: '@acme/jira-step, ./extensions/crm.js' }).EXTENSIONS, '@acme/jira-step, ./extensions/crm.js');
    assert.throws(() => validateEnv({ ...process.env, EXTENSIONS: 'a,,b' }), /EXTENSIONS must be comma-separated module specifiers/);
  });
});
