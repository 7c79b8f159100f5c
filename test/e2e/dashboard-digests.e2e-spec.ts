/**
 * The dashboard's digests page in headless Chromium, with a local SMTP sink as the relay:
 * digests created and changed from a form (refusals shown at their fields, the organization's cap
 * stated) and deleted after a confirmation, reached from the Reports page by keyboard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoPageProblems, checkAtEachWidth, expectHttpError, focused, launchChromium } from '../support/browser.js';
import { givenSignedIn, goToSection, heading, listenOnLoopback, tableRows } from '../support/browser-dashboard.js';
import { DIGESTS } from '../support/digest-helpers.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('admin dashboard: digests in the browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let sink: SmtpSink;

  before(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, MAX_DIGESTS_PER_ORGANIZATION: '1' } });
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await sink?.close();
    await closeDb();
  });

  it('creates a digest from a form, refusals at their fields, states the cap, changes it from the same form prefilled, and deletes it after a confirmation', async () => {
    const { org, context, page } = await givenSignedIn(t, browser, baseUrl);
    const listed = async () => (await t.request('GET', DIGESTS, { token: org.adminToken })).body.digests;
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/digests$/ });
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/digests\/\d+$/ });
    await goToSection(page, 'Reports');
    await page.getByRole('link', { name: 'Email digests' }).focus();
    await page.keyboard.press('Enter');
    await heading(page, 'Digests').waitFor();
    await page.getByText('No digests').waitFor();

    await page.getByRole('button', { name: 'New digest' }).click();
    await page.getByLabel('Schedule').selectOption('weekly');
    await page.getByLabel('On').selectOption({ label: 'Friday' });
    await page.getByLabel('At').selectOption({ label: '08:00 UTC' });
    await page.getByLabel('Recipients').fill('ops@acme.example\nnot-an-address');
    await page.getByRole('button', { name: 'Create digest' }).click();
    const error = page.locator('#digest-recipients-error');
    await error.waitFor();
    assert.match(await error.innerText(), /email address/);
    assert.equal((await focused(page)).id, 'digest-recipients', 'the keyboard is taken to the field to correct');
    assert.deepEqual(await listed(), [], 'nothing created');

    await page.getByLabel('Recipients').fill('ops@acme.example\nlead@acme.example');
    await page.getByRole('button', { name: 'Create digest' }).click();
    await page.getByRole('region', { name: 'Digests' }).waitFor();
    assert.deepEqual((await tableRows(page, 'Digests')).map((row) => [row[0], row[1]]), [['Weekly, Friday at 08:00 UTC', 'ops@acme.example, lead@acme.example (0 confirmed)']]);
    const [digest] = await listed();
    assert.deepEqual([digest.schedule, digest.weekday, digest.hour_utc, digest.recipients], ['weekly', 5, 8, ['ops@acme.example', 'lead@acme.example']]);
    await checkAtEachWidth(page, 'digests');

    await page.getByRole('button', { name: 'New digest' }).click();
    await page.getByLabel('Recipients').fill('ops@acme.example');
    await page.getByRole('button', { name: 'Create digest' }).click();
    const cap = page.getByRole('alert').filter({ hasText: 'Limit reached: at most 1 digests' });
    await cap.waitFor();
    assert.match(await cap.innerText(), /MAX_DIGESTS_PER_ORGANIZATION/);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit digest Weekly, Friday at 08:00 UTC' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Change digest' }).waitFor();
    assert.equal((await focused(page)).id, 'digest-schedule', 'the keyboard is taken to the form');
    assert.deepEqual(
      [await page.getByLabel('Schedule').inputValue(), await page.getByLabel('On').inputValue(), await page.getByLabel('At').inputValue(), await page.getByLabel('Recipients').inputValue()],
      ['weekly', '5', '8', 'ops@acme.example\nlead@acme.example'],
      'prefilled with the digest',
    );
    await page.getByLabel('Recipients').fill('ops@acme.example\nnot-an-address');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await error.waitFor();
    assert.match(await error.innerText(), /email address/);
    assert.equal((await focused(page)).id, 'digest-recipients');
    assert.deepEqual((await listed())[0].recipients, ['ops@acme.example', 'lead@acme.example'], 'nothing changed');
    await page.getByLabel('Schedule').selectOption('daily');
    await page.getByLabel('At').selectOption({ label: '09:00 UTC' });
    await page.getByLabel('Recipients').fill('ops@acme.example\nnew@acme.example');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('region', { name: 'Change digest' }).waitFor({ state: 'detached' });
    assert.deepEqual((await tableRows(page, 'Digests')).map((row) => [row[0], row[1]]), [['Daily at 09:00 UTC', 'ops@acme.example, new@acme.example (0 confirmed)']]);
    const [changed] = await listed();
    assert.deepEqual([changed.id, changed.schedule, changed.weekday, changed.hour_utc, changed.recipients], [digest.id, 'daily', null, 9, ['ops@acme.example', 'new@acme.example']]);

    await page.getByRole('button', { name: 'Delete digest Daily at 09:00 UTC' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this digest?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete digest' }).click();
    await page.getByText('No digests').waitFor();
    assert.deepEqual(await listed(), []);
    assertNoPageProblems(page);
    await context.close();
  });
});
