/**
 * The dashboard's subscription page in headless Chromium: a subscription disabled after its
 * receiver failed shows a banner, is enabled from it, and its missed events are sent again
 * with Recover; one delivery is sent again with Retry. The receiver is a real local HTTP
 * server. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoPageProblems, checkAtEachWidth, launchChromium } from '../support/browser.js';
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
    // Short retries, and disabling after one second of failures instead of three days.
    t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '100', DELIVERY_DISABLE_AFTER_MS: '1000' } });
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
});
