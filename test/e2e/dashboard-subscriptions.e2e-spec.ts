/**
 * The dashboard's subscription page in headless Chromium: a subscription disabled after its
 * receiver failed shows a banner, is enabled from it, and its missed events are sent again
 * with Recover; one delivery is sent again with Retry. The receiver is a real local HTTP
 * server. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoPageProblems, checkAtEachWidth, expectHttpError, focused, launchChromium } from '../support/browser.js';
import { givenSignedIn, goToSection, heading, listenOnLoopback, tableRows } from '../support/browser-dashboard.js';
import { createdCaseId, givenCasesWorkflow } from '../support/cases-api.js';
import { Receiver, subscribe, SUBSCRIPTIONS, waitFor } from '../support/subscription-helpers.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('admin dashboard: a subscription’s deliveries, retry, recover and enable in the browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let receiver: Receiver;

  before(async () => {
    // Short retries, disabling after one second of failures instead of three days, and two subscriptions at most.
    t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '100', DELIVERY_DISABLE_AFTER_MS: '1000', MAX_SUBSCRIPTIONS_PER_ORGANIZATION: '2' } });
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
    receiver = await Receiver.start();
  });
  after(async () => {
    await receiver?.stop();
    await browser?.close();
    await t.close();
    await closeDb();
  });

  it('shows a disabled subscription’s banner, enables it, recovers what it missed and retries one delivery', async () => {
    receiver.script = () => 500;
    const f = await givenCasesWorkflow(t);
    const sub = await subscribe(t, f.org, { url: `${receiver.url}/events`, events: ['case.created'] });
    const first = await createdCaseId(f);
    await waitFor('the subscription to be disabled', async () => {
      const res = await t.request('GET', SUBSCRIPTIONS, { token: f.org.adminToken });
      return res.body.subscriptions[0].status === 'disabled';
    });
    const missed = await createdCaseId(f);
    receiver.script = () => 200;

    const { context, page } = await givenSignedIn(t, browser, baseUrl, f.org);
    await goToSection(page, 'Subscriptions');
    assert.deepEqual((await tableRows(page, 'Subscriptions')).map((row) => [row[0], row[1], row[2]]), [[`${receiver.url}/events`, 'case.created', 'Disabled']]);
    await page.getByRole('link', { name: `${receiver.url}/events` }).click();
    await heading(page, `Subscription ${sub.id}`).waitFor();

    const banner = page.getByRole('status').filter({ hasText: 'This subscription is disabled' });
    await banner.waitFor();
    assert.match(await banner.innerText(), /deliveries failed for more than 1 second without a success/);
    const retryFirst = page.getByRole('button', { name: `Retry case.created of case ${first}` });
    assert.equal(await retryFirst.isDisabled(), true, 'no retry while disabled');
    assert.equal(await page.getByRole('button', { name: 'Recover', exact: true }).isDisabled(), true, 'no recover while disabled');
    assert.ok((await tableRows(page, 'Delivery attempts')).every((row) => row[3]!.startsWith('Failed')), 'every attempt so far failed');
    await checkAtEachWidth(page, 'subscription-disabled');

    await banner.getByRole('button', { name: 'Enable subscription' }).click();
    await banner.waitFor({ state: 'detached' });
    assert.equal(await page.locator('dt:text-is("Status") + dd').innerText(), 'Active');

    await page.getByRole('button', { name: 'Recover', exact: true }).click();
    await page.getByText('2 deliveries are being sent again.').waitFor();
    await waitFor('both missed events accepted', () => receiver.accepted('/events').length === 2, { describe: () => receiver.requests.map((r) => r.answered) });
    assert.deepEqual(receiver.accepted('/events').map((e) => e.data.case.id).sort(), [first, missed].sort());

    await page.getByRole('button', { name: 'Refresh' }).click();
    await waitFor('the delivered attempts listed', async () => (await tableRows(page, 'Delivery attempts')).filter((row) => row[3]!.startsWith('Delivered 200')).length === 2);
    const firstWebhookId = receiver.requests.find((r) => r.answered === 500)!.headers['webhook-id'];

    await retryFirst.click();
    await page.getByText(`The case.created of case ${first} is being sent again`).waitFor();
    await waitFor('the retried event accepted', () => receiver.accepted('/events').length === 3);
    assert.equal(receiver.requests.at(-1)!.headers['webhook-id'], firstWebhookId, 'the same event, sent once more');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await waitFor('three delivered attempts listed', async () => (await tableRows(page, 'Delivery attempts')).filter((row) => row[3]!.startsWith('Delivered 200')).length === 3);
    await checkAtEachWidth(page, 'subscription-recovered');
    assertNoPageProblems(page);
    await context.close();
  });

  it('creates, changes and deletes subscriptions, refusals shown at their fields and the cap stated', async () => {
    const f = await givenCasesWorkflow(t);
    const workflowName = (await t.request('GET', `/api/admin/v1/workflows/${f.workflowId}`, { token: f.org.adminToken })).body.workflow.name;
    const listed = async () => (await t.request('GET', SUBSCRIPTIONS, { token: f.org.adminToken })).body.subscriptions;
    const { context, page } = await givenSignedIn(t, browser, baseUrl, f.org);
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/subscriptions$/ });
    await goToSection(page, 'Subscriptions');
    await page.getByText('No subscriptions').waitFor();

    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('URL').fill('not a url');
    await page.getByRole('checkbox', { name: 'case.created' }).uncheck();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.locator('#subscription-url-error').waitFor();
    assert.match(await page.locator('#subscription-url-error').innerText(), /url/);
    assert.match(await page.locator('#subscription-events-error').innerText(), /events/);
    assert.equal((await focused(page)).id, 'subscription-url', 'the keyboard is taken to the first field to correct');
    assert.equal(await page.getByLabel('URL').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await listed(), [], 'nothing created');

    await page.getByLabel('URL').fill(`${receiver.url}/first`);
    await page.getByRole('checkbox', { name: 'case.closed' }).check();
    await page.getByLabel('URL').press('Enter');
    const secret = page.getByLabel('Signing secret');
    await secret.waitFor();
    assert.match(await secret.inputValue(), /^whsec_/);
    assert.deepEqual((await tableRows(page, 'Subscriptions')).map((row) => [row[0], row[1]]), [[`${receiver.url}/first`, 'case.closed']]);
    await checkAtEachWidth(page, 'subscription-created');

    await subscribe(t, f.org, { url: `${receiver.url}/second`, events: ['case.created'] });
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('URL').fill(`${receiver.url}/third`);
    await page.getByRole('button', { name: 'Create subscription' }).click();
    const cap = page.getByRole('alert').filter({ hasText: 'Limit reached: at most 2 subscriptions' });
    await cap.waitFor();
    assert.match(await cap.innerText(), /MAX_SUBSCRIPTIONS_PER_ORGANIZATION/);
    assert.equal((await listed()).length, 2);

    const [first] = await listed();
    await page.getByRole('link', { name: `${receiver.url}/first` }).click();
    await heading(page, `Subscription ${first.id}`).waitFor();
    await page.getByLabel('URL').fill(`${receiver.url}/changed`);
    await page.getByRole('checkbox', { name: workflowName }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved. Events from now on follow the change.').waitFor();
    const changed = (await listed()).find((s: { id: number }) => s.id === first.id);
    assert.deepEqual([changed.url, changed.events, changed.workflow_ids], [`${receiver.url}/changed`, ['case.closed'], [f.workflowId]]);
    assert.equal(await page.locator('dt:text-is("Workflows") + dd').innerText(), `#${f.workflowId}`);

    const remove = page.getByRole('button', { name: 'Delete subscription' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete this subscription?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await listed()).length, 2, 'cancelled: nothing deleted');
    await remove.click();
    await dialog.getByRole('button', { name: 'Delete subscription' }).click();
    await heading(page, 'Subscriptions').waitFor();
    assert.deepEqual((await listed()).map((s: { url: string }) => s.url), [`${receiver.url}/second`]);
    assert.deepEqual((await tableRows(page, 'Subscriptions')).map((row) => row[0]), [`${receiver.url}/second`]);
    assertNoPageProblems(page);
    await context.close();
  });
});
