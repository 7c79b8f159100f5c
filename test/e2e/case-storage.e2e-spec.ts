/**
 * Issue 16, one storage bound per case: what a run's steps leave in a case's attributes counts
 * against CASE_STORAGE_BYTES like what the channels store (mail: email-hostile-input.e2e-spec.ts),
 * checked before the write; a step that would pass it fails the run and stores nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertParkedInError, createCase, EMAIL, givenAutomation, readCase, receiverFor, waitForSettled } from '../support/automation-helpers.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

const CASE_STORAGE_BYTES = 1_048_576;
const OVER_THE_BOUND = `/ the attributes would take more than the ${CASE_STORAGE_BYTES} bytes a case keeps`;

describe('a run cannot grow a case past CASE_STORAGE_BYTES', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  const big = 'x'.repeat(300_000);
  const copies = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`copy${i}`, '{{ attributes.big }}']));

  it('set_attributes: copies of a 300 KB attribute are stored while they fit, and a fourth fails the run and stores nothing', async () => {
    const fits = await givenAutomation(t, { Open: [{ set_attributes: copies(2) }, { close: { outcome: 'Copied' } }] });
    const kept = await createCase(fits, { attributes: { customer_email: EMAIL, big } });
    await waitForSettled(kept, 'Closed');
    assert.equal((await readCase(fits, kept)).body.case.attributes.copy1, big);

    const over = await givenAutomation(t, { Open: [{ set_attributes: copies(4) }, { close: { outcome: 'Copied' } }] });
    const refused = await createCase(over, { attributes: { customer_email: EMAIL, big } });
    await assertParkedInError(over, refused, `set_attributes: ${OVER_THE_BOUND}`);
    assert.deepEqual(Object.keys((await readCase(over, refused)).body.case.attributes).sort(), ['big', 'customer_email']);
  });

  it('http_request: an answer saved with save_response_as that would take the attributes past the bound fails the run and stores nothing', async (ctx) => {
    const receiver = await receiverFor(ctx, () => ({ status: 200, body: { echo: 'y'.repeat(800_000) } }));
    const a = await givenAutomation(t, {
      Open: [{ http_request: { method: 'POST', url: `${receiver.url}/crm`, retries: 0, save_response_as: 'crm' } }, { close: { outcome: 'Synced' } }],
    });
    const id = await createCase(a, { attributes: { customer_email: EMAIL, big } });
    await assertParkedInError(a, id, `http_request: ${OVER_THE_BOUND}`);
    assert.equal((await readCase(a, id)).body.case.attributes.crm, undefined);
  });
});
