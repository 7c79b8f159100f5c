/**
 * Service levels in the dashboard, in headless Chromium (sla.md sections 2 to 4): the Builder's
 * `on_sla` steps built with the keyboard alone and test-run as a warning and as a breach; the
 * Reports page's SLA bars and table; and the case page's SLA clocks, each due time in the
 * viewer's time zone and in the calendar's. axe-core finds no serious or critical violation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type Automated, createCase, eventually, givenAutomation, patchStatus } from '../support/automation-helpers.js';
import { assertNoPageProblems, newContext, openPage } from '../support/browser.js';
import { dashboardSuite, detail, givenSignedIn, goToSection, heading, signIn, tableRows } from '../support/browser-dashboard.js';
import { axeSerious, keyboard } from '../support/builder-hands.js';
import { createOrganization, createWorkflow } from '../support/scenario.js';

const CALENDAR = { name: 'Support hours', time_zone: 'America/New_York' };
// Resolution only: closing a case meets it, and a second's target at high priority breaches while the test waits.
const POLICY = { calendar: CALENDAR.name, targets: { normal: { resolution: 'PT1H' }, high: { resolution: 'PT1S' } } };

/** A test run's step paths and its final status, once a run whose first step is at `firstPath` is shown. */
async function testRunSteps(page: Page, firstPath: string): Promise<{ paths: string[]; finalStatus: string | null }> {
  const steps = page.getByRole('list', { name: 'Test run steps' }).getByRole('listitem');
  await steps.first().filter({ hasText: firstPath }).waitFor();
  return { paths: (await steps.allTextContents()).map((text) => text.split(/\s/)[0]!), finalStatus: await detail(page, 'Final status').textContent() };
}

/** `iso` as a 24-hour wall clock ("HH:MM") in `timeZone`. */
function wallClock(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  return `${parts.find((p) => p.type === 'hour')!.value}:${parts.find((p) => p.type === 'minute')!.value}`;
}

describe('admin dashboard: service levels in the browser', () => {
  const suite = dashboardSuite();

  it('builds on_sla steps with the keyboard alone, saves them, and test-runs them as a breach and as a warning', async () => {
    const org = await createOrganization(suite.t);
    const workflowId = await createWorkflow(suite.t, org, { name: 'Escalations', case_source: 'direct', statuses: ['Triage'] }, false);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    await page.goto(`/dashboard/workflows/${workflowId}?tab=builder`);
    await heading(page, 'Escalations').waitFor();
    await page.getByRole('heading', { name: 'When an SLA warning fires' }).waitFor();
    await page.getByRole('heading', { name: 'When an SLA is breached' }).waitFor();

    const hands = keyboard(page);
    await hands.choose('New step type for SLA warning', 'set_status');
    await hands.press('Add step to SLA warning');
    await hands.choose('Arguments of SLA warning step 1', 'Triage');
    await hands.choose('New step type for SLA breach', 'set_attributes');
    await hands.press('Add step to SLA breach');
    await hands.type('New field name', 'escalated');
    await hands.press('Add field');
    await hands.type('Value of field escalated', 'yes');
    assert.deepEqual(await axeSerious(page), [], 'the Builder with on_sla steps');
    await hands.press('Save draft');
    await page.getByText('Draft saved.').waitFor();
    const saved = await suite.t.request('GET', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body.workflow.on_sla, { warning: [{ set_status: 'Triage' }], breached: [{ set_attributes: { escalated: 'yes' } }] });

    await page.getByRole('tab', { name: 'JSON' }).click();
    assert.deepEqual(JSON.parse(await page.getByLabel('Definition (JSON)').inputValue()).on_sla, saved.body.workflow.on_sla, 'the JSON tab shows them too');

    await hands.openTab('Test run');
    await hands.choose('Steps to run', 'The steps for an SLA breach');
    await hands.press('Run test');
    assert.deepEqual(await testRunSteps(page, '/on_sla/breached/0'), { paths: ['/on_sla/breached/0'], finalStatus: 'Open' });
    assert.match((await page.getByLabel('Final attributes').textContent())!, /"escalated": "yes"/);
    const request = page.waitForRequest((r) => r.url().endsWith(`/workflows/${workflowId}/test_runs`));
    await hands.choose('Steps to run', 'The steps for an SLA warning');
    await hands.press('Run test');
    assert.equal(JSON.parse((await request).postData()!).on_sla, 'warning');
    // The warning's move to Triage is followed into Triage's automation, which has none.
    assert.deepEqual(await testRunSteps(page, '/on_sla/warning/0'), { paths: ['/on_sla/warning/0'], finalStatus: 'Triage' });
    assert.deepEqual(await axeSerious(page), [], 'the Test run tab with an SLA run');
    assertNoPageProblems(page);
    await context.close();
  });

  /** A workflow with the policy, a case whose resolution was met (closed) and one breached (high priority, a second's target), and one running. */
  async function givenMeasuredCases(): Promise<{ w: Automated; running: number; breached: number }> {
    const w = await givenAutomation(suite.t, {}, { name: 'Support' });
    const admin = { token: w.org.adminToken };
    assert.equal((await suite.t.request('PUT', `/api/admin/v1/calendars/${encodeURIComponent(CALENDAR.name)}`, { ...admin, body: { time_zone: CALENDAR.time_zone, hours: '24x7' } })).status, 200);
    const policy = await suite.t.request('PUT', `/api/admin/v1/workflows/${w.workflowId}/sla`, { ...admin, body: POLICY });
    assert.equal(policy.status, 200, policy.text);
    const [met, breached, running] = [await createCase(w), await createCase(w), await createCase(w)];
    assert.equal((await patchStatus(w, met, 'Closed')).status, 200);
    const high = await suite.t.request('PATCH', `/api/admin/v1/cases/${breached}`, { ...admin, body: { priority: 'high' } });
    assert.equal(high.status, 200, high.text);
    await eventually(`case ${breached}'s resolution to breach`, async () => {
      const res = await suite.t.request('GET', `/api/admin/v1/cases/${breached}`, admin);
      return res.body.case.sla.resolution.state === 'breached' ? true : undefined;
    });
    return { w, running, breached };
  }

  it('draws the SLA report on the Reports page: met and breached and the business time to meet, per clock and priority, and as a table', async () => {
    const { w } = await givenMeasuredCases();
    const { page, context } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, w.org);
    await goToSection(page, 'Reports');
    const outcomes = page.getByRole('img', { name: /^SLA clocks met and breached/ });
    await outcomes.waitFor();
    assert.equal(await outcomes.getAttribute('aria-label'), 'SLA clocks met and breached, by clock and priority. Resolution, normal: 1 met, 0 breached; Resolution, high: 0 met, 1 breached');
    assert.match((await page.getByRole('img', { name: /^Business time to meet/ }).getAttribute('aria-label'))!, /^Business time to meet, by clock and priority\. Resolution, normal: \d+ s median, \d+ s 90th percentile$/);
    assert.equal(await page.getByText('3 cases under an SLA policy in this range.').count(), 1, 'the running case counts, its clock is not measured yet');
    await page.getByText('Show service levels as a table').click();
    const rows = await tableRows(page, 'Service levels by clock and priority');
    assert.deepEqual(rows.map((row) => row.slice(0, 6)), [
      ['Resolution', 'normal', '1', '1', '0', '100%'],
      ['Resolution', 'high', '1', '0', '1', '0%'],
    ]);
    assert.deepEqual(rows[1]!.slice(6), ['–', '–'], 'a breach never met has no time to meet');
    assert.deepEqual(await axeSerious(page), [], 'the Reports page');

    const request = page.waitForRequest(/\/api\/admin\/v1\/reports\/sla\?/);
    await page.getByRole('checkbox', { name: 'Support' }).first().check();
    assert.equal(new URL((await request).url()).searchParams.get('workflow_id'), String(w.workflowId), 'one workflow picked narrows the SLA report to it');
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows each SLA clock of a case with its due time in the viewer\'s time zone and in the calendar\'s', async () => {
    const { w, running, breached } = await givenMeasuredCases();
    const context = await newContext(suite.browser, suite.baseUrl, { timezoneId: 'Asia/Tokyo' });
    const page = await openPage(context);
    await signIn(page, w.org.adminToken);
    const { body } = await suite.t.request('GET', `/api/admin/v1/cases/${running}`, { token: w.org.adminToken });
    assert.deepEqual(body.case.sla.calendar, CALENDAR);
    const due: string = body.case.sla.resolution.due_at;

    await page.goto(`/dashboard/cases/${running}`);
    await heading(page, `Case #${running}`).waitFor();
    await page.getByRole('heading', { level: 2, name: /^Service levels/ }).waitFor();
    const headers = await page.getByRole('region', { name: 'SLA clocks' }).locator('thead th').allTextContents();
    assert.deepEqual(headers, ['Clock', 'State', 'Due, your time (Asia/Tokyo)', 'Due, calendar time (America/New_York)', 'Met', 'Breached']);
    const [row] = await tableRows(page, 'SLA clocks');
    assert.deepEqual(row!.slice(0, 2), ['Resolution', 'running']);
    assert.ok(row![2]!.includes(wallClock(due, 'Asia/Tokyo')) && row![2]!.includes('GMT+9'), `Tokyo time: ${row![2]}`);
    assert.ok(row![3]!.includes(wallClock(due, 'America/New_York')) && /\b(EST|EDT|GMT-[45])\b/.test(row![3]!), `New York time: ${row![3]}`);
    assert.deepEqual(row!.slice(4), ['—', '—']);
    assert.deepEqual(await axeSerious(page), [], 'the case page with its SLA clocks');

    await page.goto(`/dashboard/cases/${breached}`);
    await heading(page, `Case #${breached}`).waitFor();
    const [late] = await tableRows(page, 'SLA clocks');
    assert.equal(late![1], 'breached');
    assert.ok(late![5]!.includes('GMT+9'), `the breach is shown in the viewer's time: ${late![5]}`);
    assertNoPageProblems(page);
    await context.close();
  });
});
