/**
 * Reports and Usage in a browser far from UTC (Honolulu, UTC-10 all year) writing German: a
 * case created at 23:30 there, 09:30 UTC the next day, counts on the same calendar day on both
 * pages, the day the browser saw it on; the charts read without hovering and write their dates
 * the German way. Canvas text is read by recording what uPlot draws.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Automated, createCase, givenAutomation } from '../support/automation-helpers.js';
import { assertNoPageProblems, launchChromium, newContext, openPage } from '../support/browser.js';
import { goToSection, heading, listenOnLoopback, signIn, tableRows } from '../support/browser-dashboard.js';
import { DAY_MS, HOUR_MS, holdFold, travel } from '../support/report-helpers.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const HONOLULU_OFFSET_MS = -10 * HOUR_MS;
/** Every text uPlot draws on its canvases (axis ticks), kept for the test to read. */
const RECORD_CANVAS_TEXT = `(() => {
  window.canvasTexts = [];
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) { window.canvasTexts.push(String(text)); return fillText.call(this, text, ...rest); };
})();`;

describe('admin dashboard: reports and usage count the browser’s calendar days', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let w: Automated;
  let releaseFold: () => Promise<void>;

  before(async () => {
    t = await startTestApp();
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
    w = await givenAutomation(t, {});
    // The report reads the log of changes until it is folded: held, `travel` can move the case back.
    releaseFold = await holdFold(db());
    await createCase(w);
    const honoluluMidnight = Math.floor((Date.now() + HONOLULU_OFFSET_MS) / DAY_MS) * DAY_MS - HONOLULU_OFFSET_MS;
    const twoDaysAgoAt2330 = honoluluMidnight - DAY_MS - 30 * 60_000;
    await travel(db(), w.org.id, Date.now() - twoDaysAgoAt2330);
  });
  after(async () => {
    await releaseFold?.();
    await browser?.close();
    await t.close();
    await closeDb();
  });

  /** A page signed in from Honolulu, in German, recording the text drawn on canvases. */
  const honoluluPage = async () => {
    const context = await newContext(browser, baseUrl, { timezoneId: 'Pacific/Honolulu', locale: 'de-DE' });
    const page = await openPage(context);
    await page.addInitScript(RECORD_CANVAS_TEXT);
    await signIn(page, w.org.adminToken);
    await page.goto('/dashboard/reports?range=7d');
    await heading(page, 'Reports').waitFor();
    await page.locator('.stat').first().waitFor();
    return { context, page };
  };

  it('counts a case created just before midnight on the same local day on Reports and Usage', async () => {
    const { context, page } = await honoluluPage();
    await page.getByText('Show as a table').click();
    const reportDays = await tableRows(page, 'Cases per interval');
    assert.equal(reportDays.length, 7, 'seven calendar days, today last');
    assert.deepEqual(reportDays.map((row) => row[1]), ['0', '0', '0', '0', '1', '0', '0'], 'the day before yesterday in Honolulu');

    await goToSection(page, 'Usage');
    await page.getByText('Show as a table').click();
    const usageDays = await tableRows(page, 'Usage per day');
    assert.deepEqual(usageDays.map((row) => row[1]), ['0', '0', '0', '0', '1', '0', '0']);
    assert.deepEqual(usageDays.map((row) => row[0]), reportDays.map((row) => row[0]), 'the same days, named alike');
    assert.match(usageDays[4]![0]!, /^[A-Z][a-z]\., \d{1,2}\. /, `a German day name: ${usageDays[4]![0]}`);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows the charts’ values without hovering, and their dates in the browser’s language', async () => {
    const { context, page } = await honoluluPage();
    const legend = await page.locator('.time-chart .u-legend').first().innerText();
    assert.match(legend, /Created\s*1 in total/, 'the total reads without hovering');
    assert.doesNotMatch(legend, /--/);
    const ticks: string[] = await page.evaluate('window.canvasTexts');
    assert.ok(ticks.some((text) => /^\d{1,2}\.\d{1,2}\.$/.test(text)), `German day ticks (27.11.), drawn: ${ticks.join(' | ')}`);
    assert.ok(!ticks.some((text) => /^\d{1,2}\/\d{1,2}$/.test(text)), `no US-style day ticks (11/27), drawn: ${ticks.join(' | ')}`);
    assertNoPageProblems(page);
    await context.close();
  });
});
