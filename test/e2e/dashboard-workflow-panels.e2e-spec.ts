/**
 * The workflow page's Test run and Versions tabs in headless Chromium (builder.md §4): a test run
 * of the published version from the keyboard alone, with requests shown and then really sent to
 * a local receiver; a refused attribute shown under the attributes; two published versions
 * diffed side by side and the first restored into the draft; axe-core on both tabs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { receiverFor } from '../support/automation-helpers.js';
import { assertNoPageProblems, axeViolations, checkAtEachWidth, expectHttpError, focused, openPage, tabUntil, WIDTHS } from '../support/browser.js';
import { dashboardSuite, detail, givenSignedIn, heading, signIn, tableRows } from '../support/browser-dashboard.js';
import { createOrganization, createWorkflow, type Organization } from '../support/scenario.js';
import { db } from '../support/test-app.js';

const CRM_KEY = 'crm-panel-key-7c1d';

const definition = (url: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Panels',
  case_source: 'direct',
  statuses: ['Triage'],
  attributes: {
    customer_email: { type: 'string', required: true, format: 'email' },
    priority: { type: 'integer', enum: [1, 2, 3] },
    queue: { type: 'string' },
  },
  automations: {
    Open: [
      { set_attributes: { queue: 'vip' } },
      { http_request: { method: 'POST', url: `${url}/hooks`, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' }, body: { email: '{{ attributes.customer_email }}' }, retries: 0 } },
      { set_status: 'Triage' },
    ],
    Triage: [{ close: { outcome: 'Done' } }],
  },
  ...overrides,
});

async function givenOrganization(t: Parameters<typeof createOrganization>[0]): Promise<Organization> {
  const org = await createOrganization(t);
  const stored = await t.request('PUT', '/api/admin/v1/secrets/CRM_KEY', { token: org.adminToken, body: { value: CRM_KEY } });
  assert.equal(stored.status, 200, stored.text);
  return org;
}

/** Each step of the shown test run: its text, one line. */
async function shownSteps(page: Page): Promise<string[]> {
  const steps = page.getByRole('list', { name: 'Test run steps' }).locator(':scope > li');
  await steps.first().waitFor();
  return (await steps.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Tabs (forwards, or backwards) to the control `label` names. */
async function tabToLabelled(page: Page, label: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  const id = await page.getByLabel(label, { exact: true }).getAttribute('id');
  assert.ok(id, `no control labelled "${label}"`);
  await tabUntil(page, (focus) => focus.id === id, `"${label}"`, key);
}

const tabToButton = (page: Page, name: string, key: 'Tab' | 'Shift+Tab' = 'Tab') => tabUntil(page, (focus) => focus.tag === 'button' && focus.text === name, `the button "${name}"`, key);

describe('admin dashboard: the workflow\'s Test run and Versions tabs in the browser', () => {
  const suite = dashboardSuite();

  it('test-runs the published version from the keyboard alone: requests shown, then sent when switched on', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 202, body: { accepted: true } }));
    const org = await givenOrganization(suite.t);
    const workflowId = await createWorkflow(suite.t, org, definition(receiver.url));
    // The draft differs from what is published: the run must take the published version.
    const draft = await suite.t.request('PUT', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken, body: definition(receiver.url, { automations: { Open: [{ set_attributes: { queue: 'draft' } }] } }) });
    assert.equal(draft.status, 200, draft.text);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    await page.goto(`/dashboard/workflows/${workflowId}?tab=test-run`);
    await heading(page, 'Panels').waitFor();

    const attributes = page.getByLabel('Sample attributes (JSON)');
    await attributes.waitFor();
    assert.deepEqual(JSON.parse(await attributes.inputValue()), { customer_email: 'someone@example.com', priority: 1, queue: 'example' }, 'prefilled from the schema');
    const send = page.getByRole('checkbox', { name: 'Send requests' });
    const description = await page.locator(`[id="${await send.getAttribute('aria-describedby')}"]`).innerText();
    assert.match(description, /X-Case-Intake-Test-Run: true/);
    assert.match(description, /not sent/);

    await tabToLabelled(page, 'Definition');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.getByLabel('Definition', { exact: true }).inputValue(), 'published');
    await tabToButton(page, 'Run test');
    await page.keyboard.press('Enter');
    const steps = await shownSteps(page);
    assert.equal(steps.length, 4, steps.join('\n'));
    for (const [n, [path, type, outcome]] of [['/automations/Open/0', 'set_attributes', 'change'], ['/automations/Open/1', 'http_request', 'not_sent'], ['/automations/Open/2', 'set_status', 'move'], ['/automations/Triage/0', 'close', 'close']].entries()) {
      assert.ok(steps[n]!.startsWith(`${path} ${type} ${outcome}`), steps[n]);
    }
    assert.match(steps[1]!, /authorization: Bearer \[secret CRM_KEY\]/);
    assert.match(steps[1]!, /someone@example\.com/);
    assert.equal(await detail(page, 'Final status').innerText(), 'Closed');
    assert.equal(await detail(page, 'Stopped because').innerText(), 'closed');
    assert.equal((await focused(page)).id, 'test-run-result', 'the keyboard is taken to the result');
    assert.equal(receiver.requests.length, 0, 'nothing sent while the switch is off');

    await tabToLabelled(page, 'Send requests', 'Shift+Tab');
    await page.keyboard.press('Space');
    assert.equal(await send.isChecked(), true);
    assert.match(await page.locator(`[id="${await send.getAttribute('aria-describedby')}"]`).innerText(), /really send/);
    await tabToButton(page, 'Run test');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Test run steps' }).getByText('sent', { exact: true }).waitFor();
    const sentSteps = await shownSteps(page);
    assert.ok(sentSteps[1]!.startsWith('/automations/Open/1 http_request sent'), sentSteps[1]);
    assert.match(sentSteps[1]!, /Status 202/);
    assert.ok(!(await page.content()).includes(CRM_KEY), 'the secret never reaches the page');
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.headers['x-case-intake-test-run'], 'true');
    assert.equal(receiver.requests[0]!.headers.authorization, `Bearer ${CRM_KEY}`);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows refused attributes under the attributes, and a draft that today\'s rules refuse as its problems, each with its pointer', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const org = await givenOrganization(suite.t);
    const workflowId = await createWorkflow(suite.t, org, definition(receiver.url), false);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    expectHttpError(page, { status: 422, url: /\/test_runs$/ });
    await page.goto(`/dashboard/workflows/${workflowId}?tab=test-run`);
    const attributes = page.getByLabel('Sample attributes (JSON)');
    await attributes.fill('{"customer_email": "a@example.com", "priority": 7}');
    await page.getByRole('button', { name: 'Run test' }).click();
    const problem = page.locator(`[id="${(await attributes.getAttribute('id'))!}-error"]`);
    await problem.waitFor();
    assert.match(await problem.innerText(), /\/priority/);
    assert.equal(await attributes.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByRole('list', { name: 'Test run steps' }).count(), 0);

    // A draft saved when it was valid, refused by today's rules (a step type no extension registers): listed with its pointer.
    await db().query('UPDATE workflows SET draft = $2 WHERE id = $1', [workflowId, JSON.stringify(definition(receiver.url, { automations: { Open: [{ set_status: 'Triage' }, { open_ticket: { title: 'x' } }] } }))]);
    await attributes.fill('{"customer_email": "a@example.com"}');
    await page.getByRole('button', { name: 'Run test' }).click();
    const problems = page.getByRole('alert').filter({ hasText: 'The definition does not pass today' });
    await problems.waitFor();
    assert.match(await problems.innerText(), /\/automations\/Open\/1/);
    assert.equal(await attributes.getAttribute('aria-invalid'), null, 'the attributes are not what is wrong');
    assert.equal(receiver.requests.length, 0);
    assertNoPageProblems(page);
    await context.close();
  });

  it('lists the versions, diffs two of them side by side, and restores the first into the draft without publishing', async () => {
    const org = await createOrganization(suite.t);
    const first = definition('https://crm.example', { automations: {} });
    const workflowId = await createWorkflow(suite.t, org, first, false);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    await page.goto(`/dashboard/workflows/${workflowId}?tab=versions`);
    await heading(page, 'Panels').waitFor();
    await page.getByText('Not published yet').waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published version 1.').waitFor();
    const changed = await suite.t.request('PUT', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken, body: { ...first, statuses: ['Triage', 'Escalated'] } });
    assert.equal(changed.status, 200, changed.text);
    await page.reload();
    await page.getByRole('button', { name: 'Publish draft' }).click();
    await page.getByText('Published version 2.').waitFor();

    const rows = await tableRows(page, 'Published versions');
    await page.getByRole('button', { name: 'Restore version 1 into the draft' }).waitFor();
    assert.deepEqual(rows.map((row) => row[0]), ['Version 2 (live)', 'Version 1']);
    assert.ok(rows.every((row) => row[2] !== ''), 'who published each version');

    await page.getByLabel('Compare version').selectOption({ label: 'Version 1' });
    await page.getByLabel('with version').selectOption({ label: 'Version 2' });
    const diff = page.getByRole('region', { name: 'Version diff' });
    await diff.getByRole('columnheader', { name: 'Version 2' }).waitFor();
    const removed = await diff.locator('.diff__text--removed').allInnerTexts();
    const added = await diff.locator('.diff__text--added').allInnerTexts();
    assert.equal(removed.length, 1, removed.join('\n'));
    assert.equal(added.length, 1, added.join('\n'));
    // Marked in the text too (a sign, and a word for screen readers), for whoever does not see the colours.
    assert.match(removed[0]!, /^−\s*removed:\s*"statuses": \["Triage"\],$/);
    assert.match(added[0]!, /^\+\s*added:\s*"statuses": \["Triage", "Escalated"\],$/);
    await page.getByRole('status').filter({ hasText: '1 line removed and 1 added from version 1 to version 2.' }).waitFor();

    await page.getByRole('button', { name: 'Restore version 1 into the draft' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore version 1 into the draft?' });
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version 1 is now the draft.').waitFor();
    const after = await suite.t.request('GET', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken });
    assert.deepEqual(after.body.workflow.statuses, ['Open', 'Closed', 'Error', 'Triage']);
    assert.deepEqual([after.body.workflow.version, after.body.workflow.published, after.body.workflow.draft_changed], [2, true, true], 'nothing published');
    // The draft column of the diff shows the restored draft.
    await page.getByLabel('with version').selectOption({ label: 'Draft' });
    await page.getByRole('status').filter({ hasText: 'No differences between version 1 and the draft.' }).waitFor();
    assertNoPageProblems(page);
    await context.close();
  });

  it('axe-core finds no serious or critical violation on the Test run tab with a result, and on the Versions tab with a diff; neither scrolls sideways on a phone', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const org = await givenOrganization(suite.t);
    const workflowId = await createWorkflow(suite.t, org, definition(receiver.url));
    const changed = await suite.t.request('PUT', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken, body: definition(receiver.url, { statuses: ['Triage', 'Escalated'] }) });
    assert.equal(changed.status, 200, changed.text);
    // The test injects axe-core as a script, which the dashboard's CSP rightly refuses.
    const context = await suite.browser.newContext({ baseURL: suite.baseUrl, bypassCSP: true, viewport: { width: WIDTHS[0].width, height: WIDTHS[0].height } });
    const page = await openPage(context);
    await signIn(page, org.adminToken);
    const serious = async (what: string) => {
      const found = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(found, [], what);
    };
    await page.goto(`/dashboard/workflows/${workflowId}?tab=test-run`);
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.getByRole('list', { name: 'Test run steps' }).waitFor();
    await serious('the Test run tab with a result');
    await checkAtEachWidth(page, 'workflow-test-run');
    await page.getByLabel('Sample attributes (JSON)').fill('{"priority": "high"}');
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.getByText('The attributes do not match the schema.').waitFor();
    await serious('the Test run tab with refused attributes');
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('region', { name: 'Version diff' }).locator('.diff__text--added').first().waitFor();
    await serious('the Versions tab with a diff of version 1 and the draft');
    await checkAtEachWidth(page, 'workflow-versions');
    await context.close();
  });
});
