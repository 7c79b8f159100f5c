/**
 * The dashboard's Reports page in headless Chromium: the figures of live cases (a test case
 * left out), the charts drawn by uPlot with their summaries, the numbers as a table, the range
 * and workflow pickers, and a digest's link opening it. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Automated, anotherAutomation, createCase, givenAutomation, patchStatus, waitForSettled } from '../support/automation-helpers.js';
import { assertNoPageProblems, checkAtEachWidth, launchChromium } from '../support/browser.js';
import { givenSignedIn, goToSection, heading, listenOnLoopback, tableRows } from '../support/browser-dashboard.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('admin dashboard: reports in the browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let w: Automated;
  let other: Automated;

  before(async () => {
    t = await startTestApp();
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
    w = await givenAutomation(t, { Triage: [{ fail: 'crm answered 500' }] }, { name: 'Escalations' });
    other = await anotherAutomation(w, {});
    const [a, b] = [await createCase(w), await createCase(w), await createCase(w), await createCase(other)];
    await createCase(w, { mode: 'test' });
    assert.equal((await patchStatus(w, a!, 'Closed')).status, 200);
    assert.equal((await patchStatus(w, b!, 'Triage')).status, 200);
    await waitForSettled(b!, 'Error');
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await closeDb();
  });

  const stat = (page: import('playwright-core').Page, label: string) => page.locator(`.stat dt:text-is("${label}") + dd`).textContent();

  it('shows the live figures as stats, charts and a table, and narrows them to the workflows picked', async () => {
    const { page, context } = await givenSignedIn(t, browser, baseUrl, w.org);
    await goToSection(page, 'Reports');
    await heading(page, 'Reports').waitFor();
    await page.locator('.stat').first().waitFor();
    assert.deepEqual([await stat(page, 'Created'), await stat(page, 'Closed'), await stat(page, 'Errored')], ['4', '1', '1']);
    const flow = await page.getByRole('img', { name: /^Cases created, closed and errored per day/ }).getAttribute('aria-label');
    assert.equal(flow, 'Cases created, closed and errored per day. Created: 4 in total, Closed: 1 in total, Errored: 1 in total. The table below has each interval.');
    assert.equal(await page.locator('.time-chart canvas').count(), 2, 'uPlot drew both charts');
    await page.getByText('Show as a table').click();
    const rows = await tableRows(page, 'Cases per interval');
    assert.equal(rows.length, 30);
    assert.deepEqual(rows.at(-1)!.slice(1), ['4', '1', '1', '4', '0', '0', '0']);
    assert.deepEqual(await tableRows(page, 'Top errors'), [['crm answered 500', '1']]);
    assert.equal(await page.getByRole('img', { name: /^Open cases by status/ }).getAttribute('aria-label'), 'Open cases by status. Error: 1 cases; Open: 2 cases');
    await checkAtEachWidth(page, 'reports');

    const request = page.waitForRequest(/\/api\/admin\/v1\/reports\/cases\?/);
    await page.getByRole('checkbox', { name: 'Escalations' }).first().check();
    const params = new URL((await request).url()).searchParams;
    assert.deepEqual(params.getAll('workflow_id'), [String(w.workflowId)]);
    await page.locator('.stat dt:text-is("Created") + dd:text-is("3")').waitFor();

    const hourly = page.waitForRequest(/\/api\/admin\/v1\/reports\/cases\?/);
    await page.getByText('Last 24 hours').click();
    const hourParams = new URL((await hourly).url()).searchParams;
    assert.equal(hourParams.get('interval'), 'hour');
    assert.equal((Date.parse(hourParams.get('to')!) - Date.parse(hourParams.get('from')!)) / 3_600_000, 24);
    assert.deepEqual(hourParams.getAll('workflow_id'), [String(w.workflowId)], 'the workflows picked stay');
    await page.getByRole('img', { name: /per hour/ }).first().waitFor();
    assertNoPageProblems(page);
    await context.close();
  });

  it('opens a digest\'s link on its period', async () => {
    const { page, context } = await givenSignedIn(t, browser, baseUrl, w.org);
    const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - 7 * 86_400_000);
    const request = page.waitForRequest(/\/api\/admin\/v1\/reports\/cases\?/);
    await page.goto(`/dashboard/reports?from=${from.toISOString()}&to=${to.toISOString()}&workflow_id=${other.workflowId}`);
    const params = new URL((await request).url()).searchParams;
    assert.deepEqual([params.get('from'), params.get('to'), params.get('interval'), params.getAll('workflow_id')], [from.toISOString(), to.toISOString(), 'day', [String(other.workflowId)]]);
    await page.locator('.stat').first().waitFor();
    assert.equal(await stat(page, 'Created'), '1');
    assertNoPageProblems(page);
    await context.close();
  });
});
