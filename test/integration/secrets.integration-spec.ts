/** SecretsService: organization secrets sealed per row, replaced in place, resolved for automation. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SecretsService } from '../../src/modules/secrets/application/secrets.service.js';
import { NotFoundError } from '../../src/shared/errors/app-error.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { givenOrganization, type IntegrationOrganization, TEST_AUTHOR } from '../support/integration-scenario.js';
import { closeDb, db } from '../support/test-app.js';

describe('SecretsService (integration)', () => {
  let ctx: IntegrationContext;
  let org: IntegrationOrganization;
  let stranger: IntegrationOrganization;
  let secrets: SecretsService;

  before(async () => {
    ctx = await startIntegrationContext();
    secrets = ctx.get(SecretsService);
    [org, stranger] = [await givenOrganization(ctx), await givenOrganization(ctx)];
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  const ciphertext = async (organizationId: number, name: string): Promise<string> =>
    (await db().query('SELECT value_ciphertext FROM organization_secrets WHERE organization_id = $1 AND name = $2', [organizationId, name])).rows[0].value_ciphertext;

  it('stores a value sealed, and replaces it in place keeping its created_at', async () => {
    const first = await secrets.put(TEST_AUTHOR, org.id, 'CRM_KEY', 'crm-secret-one');
    assert.ok(!(await ciphertext(org.id, 'CRM_KEY')).includes('crm-secret-one'));
    const second = await secrets.put(TEST_AUTHOR, org.id, 'CRM_KEY', 'crm-secret-two');
    assert.equal(second.created_at, first.created_at);
    assert.ok(second.updated_at >= first.updated_at);
    assert.deepEqual((await secrets.list(org.id)).map((s) => s.name), ['CRM_KEY']);
    const resolved = await secrets.resolve(org.id, ['CRM_KEY']);
    assert.deepEqual([{ ...resolved.found }, resolved.missing], [{ CRM_KEY: 'crm-secret-two' }, []]);
  });

  it('resolves within the organization only, naming what is missing', async () => {
    await secrets.put(TEST_AUTHOR, org.id, 'MINE', 'mine');
    const resolved = await secrets.resolve(stranger.id, ['MINE']);
    assert.deepEqual([{ ...resolved.found }, resolved.missing], [{}, ['MINE']]);
    assert.deepEqual(await secrets.list(stranger.id), []);
    await assert.rejects(secrets.delete(TEST_AUTHOR, stranger.id, 'MINE'), NotFoundError);
  });

  it('seals each value to its row: a ciphertext copied to another organization or name does not open', async () => {
    await secrets.put(TEST_AUTHOR, org.id, 'BOUND', 'bound-value');
    const sealed = await ciphertext(org.id, 'BOUND');
    await secrets.put(TEST_AUTHOR, stranger.id, 'BOUND', 'placeholder');
    await secrets.put(TEST_AUTHOR, org.id, 'OTHER_NAME', 'placeholder');
    await db().query('UPDATE organization_secrets SET value_ciphertext = $1 WHERE (organization_id, name) IN (($2, \'BOUND\'), ($3, \'OTHER_NAME\'))', [sealed, stranger.id, org.id]);
    await assert.rejects(secrets.resolve(stranger.id, ['BOUND']));
    await assert.rejects(secrets.resolve(org.id, ['OTHER_NAME']));
    assert.deepEqual({ ...(await secrets.resolve(org.id, ['BOUND'])).found }, { BOUND: 'bound-value' });
  });

  it('deletes a secret, after which it is missing', async () => {
    await secrets.put(TEST_AUTHOR, org.id, 'GONE', 'soon');
    await secrets.delete(TEST_AUTHOR, org.id, 'GONE');
    assert.deepEqual((await secrets.resolve(org.id, ['GONE'])).missing, ['GONE']);
    await assert.rejects(secrets.delete(TEST_AUTHOR, org.id, 'GONE'), NotFoundError);
  });
});
