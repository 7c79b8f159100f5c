import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { givenDirectWorkflow } from '../support/scenario.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('smoke', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  it('creates and reads a case', async () => {
    const w = await givenDirectWorkflow(t);
    const created = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: 'a@b.co' } } });
    assert.equal(created.status, 201, created.text);
    const read = await t.request('GET', `${w.casesPath}/${created.body.case.id}`, { token: w.apiToken });
    assert.equal(read.status, 200);
    assert.equal(read.body.case.attributes.customer_email, 'a@b.co');
  });
});
