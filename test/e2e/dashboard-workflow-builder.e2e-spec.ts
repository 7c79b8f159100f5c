/**
 * The workflow page's Builder in headless Chromium: the tour's (docs/tour.md) example workflow built from an
 * empty draft with the builder's controls only (once with the mouse, once with the keyboard
 * alone), saved, test-run, published, given a webhook URL that takes a case, and that case's run
 * trace on its page; the JSON tab in sync with it; a 422 next to its field; an extension's step
 * type with a form generated from its schema; axe-core on both tabs (the Test run and Versions
 * tabs' axe checks are in dashboard-workflow-panels).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { TicketExtensionModule } from '../../examples/ticket-extension/src/ticket-extension.module.js';
import { eventually } from '../support/automation-helpers.js';
import { assertNoPageProblems, checkAtEachWidth, expectHttpError } from '../support/browser.js';
import { dashboardSuite, detail, fillDefinition, givenSignedIn, heading, tableRows } from '../support/browser-dashboard.js';
import { axeSerious, button, field, type Hands, keyboard, mouse, placeOfFocus } from '../support/builder-hands.js';
import { createOrganization, createWorkflow, type Organization } from '../support/scenario.js';
import type { TestApp } from '../support/test-app.js';

/** The workflow docs/tour.md's walk-through creates (its `POST /api/admin/v1/workflows` body). */
function readmeDefinition(): Record<string, unknown> {
  const tour = readFileSync(new URL('../../../docs/tour.md', import.meta.url), 'utf8');
  const body = /curl -s -X POST \$BASE\/api\/admin\/v1\/workflows -H "Authorization: Bearer \$ADM" -H 'Content-Type: application\/json' -d '(\{[\s\S]*?\n\})'/.exec(tour);
  assert.ok(body, 'docs/tour.md has its workflow example');
  return JSON.parse(body[1]!);
}

/** The definition as saved, in the shape it was written (without the built-in statuses). */
async function savedDefinition(t: TestApp, org: Organization, workflowId: number): Promise<Record<string, unknown>> {
  const res = await t.request('GET', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken });
  assert.equal(res.status, 200, res.text);
  const { name, case_source, sensitive_data, statuses, default_outcome, attributes, automations } = res.body.workflow;
  return { name, case_source, sensitive_data, statuses: statuses.filter((s: string) => !['Open', 'Closed', 'Error'].includes(s)), default_outcome, attributes, automations };
}

/** docs/tour.md's workflow, built from an empty draft with the builder's controls: no JSON typed. */
async function buildReadmeWorkflow(hands: Hands): Promise<void> {
  await hands.type('Default outcome', 'Resolved');
  await hands.type('New status name', 'Triage');
  await hands.press('Add status');

  await hands.type('New attribute name', 'customer_email');
  await hands.press('Add attribute');
  await hands.tick('Attribute customer_email is required');
  await hands.choose('Format of attribute customer_email', 'email');
  await hands.type('New attribute name', 'priority');
  await hands.press('Add attribute');
  await hands.choose('Type of attribute priority', 'integer');
  for (const n of [1, 2, 3]) {
    await hands.press('Add an allowed value to attribute priority');
    await hands.type(`Allowed value ${n} of attribute priority`, String(n));
  }

  // Open: if the priority is 1, to Triage; else into the standard queue.
  await hands.choose('New step type for Open', 'if');
  await hands.press('Add step to Open');
  await hands.choose('Field', 'attributes.priority');
  await hands.choose('Operator', 'equals');
  await hands.choose('Type of the value', 'Number');
  await hands.type('Value', '1');
  await hands.choose('New step type for Open step 1 then', 'set_status');
  await hands.press('Add step to Open step 1 then');
  await hands.choose('Arguments of Open step 1 then step 1', 'Triage');
  await hands.choose('New step type for Open step 1 else', 'set_attributes');
  await hands.press('Add step to Open step 1 else');
  await hands.type('New field name', 'queue');
  await hands.press('Add field');
  await hands.type('Value of field queue', 'standard');

  // Triage: the CRM call, its key from the organization's secrets.
  await hands.choose('New step type for Triage', 'http_request');
  await hands.press('Add step to Triage');
  await hands.choose('method (required)', 'POST');
  await hands.type('url (required)', 'https://crm.example/hooks');
  await hands.type('New header name', 'authorization');
  await hands.press('Add header');
  await hands.type('Value of header authorization', 'Bearer ');
  await hands.choose('Secret for header authorization', 'CRM_KEY');
  await hands.press('Insert secret into header authorization');
  await hands.choose('Body of Triage step 1', 'Fields (a JSON object)');
  await hands.type('New body field name', 'email');
  await hands.press('Add body field');
  await hands.type('Value of body field email', '{{ attributes.customer_email }}');
}

/** The draft run on the Test run tab's prefilled sample attributes, requests not sent: its step list and final status. */
async function testRunDraft(page: Page, hands: Hands): Promise<{ steps: string[]; finalStatus: string | null }> {
  await hands.openTab('Test run');
  assert.equal(await field(page, 'Send requests').isChecked(), false, 'requests are not sent');
  await hands.press('Run test');
  const steps = page.getByRole('list', { name: 'Test run steps' }).getByRole('listitem');
  await steps.first().waitFor();
  return { steps: await steps.allTextContents(), finalStatus: await detail(page, 'Final status').textContent() };
}

async function publish(page: Page, hands: Hands): Promise<void> {
  await hands.press('Publish');
  await page.getByText('Published version 1.').waitFor();
}

/** The webhook URL generated on the Case Configuration tab (the dashboard's own control for it). */
async function generateWebhookUrl(page: Page, hands: Hands): Promise<string> {
  // The tab first asks for an existing URL: none yet.
  expectHttpError(page, { status: 404, url: /\/api\/admin\/v1\/workflows\/[0-9]+\/webhook$/ });
  await hands.openTab('Case Configuration');
  await hands.press('Generate webhook URL');
  const url = field(page, 'Webhook URL');
  await url.waitFor();
  return url.inputValue();
}

/** A sender's POST of a JSON object to the webhook URL, as docs/tour.md shows it; the new case's id. */
async function postToWebhook(t: TestApp, webhookUrl: string, payload: Record<string, unknown>): Promise<number> {
  const { pathname, search } = new URL(webhookUrl);
  const created = await t.request('POST', pathname + search, { body: payload });
  assert.equal(created.status, 201, created.text);
  return created.body.case.id;
}

/** Waits (polling the admin API) until the case's runs have finished, then opens the case page: its Runs section's run headings and each run's step rows. */
async function runTraceOnCasePage(t: TestApp, org: Organization, page: Page, caseId: number): Promise<{ titles: string[]; steps: string[][][] }> {
  const runs = await eventually(`the runs of case ${caseId} to finish`, async () => {
    const res = await t.request('GET', `/api/admin/v1/cases/${caseId}/runs`, { token: org.adminToken });
    assert.equal(res.status, 200, res.text);
    const found: { id: number; state: string }[] = res.body.runs;
    return found.length > 0 && found.every((run) => ['succeeded', 'failed', 'superseded'].includes(run.state)) ? found : undefined;
  });
  await page.goto(`/dashboard/cases/${caseId}`);
  await heading(page, `Case #${caseId}`).waitFor();
  const section = page.getByRole('region', { name: 'Runs', exact: true });
  await section.getByRole('heading', { level: 2, name: 'Runs' }).waitFor();
  const articles = section.getByRole('article');
  await articles.nth(runs.length - 1).waitFor();
  return {
    titles: await articles.getByRole('heading', { level: 3 }).allTextContents(),
    steps: await Promise.all(runs.map((run) => tableRows(page, `Steps of run #${run.id}`))),
  };
}

/** After the tour's workflow is built and saved: test-run, publish, a webhook delivery, and its run on the case page. */
async function testRunPublishAndTakeAWebhookCase(t: TestApp, org: Organization, page: Page, hands: Hands): Promise<void> {
  const testRun = await testRunDraft(page, hands);
  // The sample's priority is its first allowed value, 1: to Triage, whose CRM call is shown, not sent.
  assert.deepEqual(testRun.steps.map((step) => step.split(/\s/)[0]), ['/automations/Open/0', '/automations/Open/0/then/0', '/automations/Triage/0']);
  assert.equal(testRun.finalStatus, 'Triage');

  await publish(page, hands);
  const webhookUrl = await generateWebhookUrl(page, hands);
  const caseId = await postToWebhook(t, webhookUrl, { customer_email: 'grace@example.com', priority: 2 });

  const trace = await runTraceOnCasePage(t, org, page, caseId);
  assert.equal(trace.titles.length, 1, trace.titles.join('; '));
  assert.match(trace.titles[0]!, /of Open: succeeded$/);
  assert.deepEqual(trace.steps[0], [
    ['/automations/Open/0', 'if', 'else', '1', '—', '—'],
    ['/automations/Open/0/else/0', 'set_attributes', 'change', '1', '—', '—'],
  ]);
}

describe('admin dashboard: the workflow builder in the browser', () => {
  const suite = dashboardSuite();

  /** An organization with the tour's CRM key and an empty draft named like the tour's workflow, open on its Builder tab. */
  async function givenEmptyDraftInBuilder() {
    const org = await createOrganization(suite.t);
    const secret = await suite.t.request('PUT', '/api/admin/v1/secrets/CRM_KEY', { token: org.adminToken, body: { value: 'crm-live-1234' } });
    assert.equal(secret.status, 200, secret.text);
    const workflowId = await createWorkflow(suite.t, org, { name: 'Customer escalations', case_source: 'direct' }, false);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    await page.goto(`/dashboard/workflows/${workflowId}?tab=builder`);
    await heading(page, 'Customer escalations').waitFor();
    await page.getByRole('heading', { name: 'Automations' }).waitFor();
    return { org, workflowId, context, page };
  }

  it('builds the tour’s workflow from an empty draft with the mouse, saves, test-runs and publishes it, and a webhook case shows its run trace', async () => {
    const { org, workflowId, context, page } = await givenEmptyDraftInBuilder();

    await buildReadmeWorkflow(mouse(page));
    const unsaved = page.getByText('Unsaved changes: Save draft before publishing');
    assert.equal(await unsaved.count(), 1, 'the page header warns of unsaved changes');
    await button(page, 'Save draft').click();
    await page.getByText('Draft saved.').waitFor();
    assert.equal(await unsaved.count(), 0, 'saved');
    assert.deepEqual(await savedDefinition(suite.t, org, workflowId), { sensitive_data: false, ...readmeDefinition() });

    await testRunPublishAndTakeAWebhookCase(suite.t, org, page, mouse(page));
    assertNoPageProblems(page);
    await context.close();
  });

  it('builds the same workflow with the keyboard alone, test-runs and publishes it, and a webhook case shows its run trace', async () => {
    const { org, workflowId, context, page } = await givenEmptyDraftInBuilder();
    const hands = keyboard(page);
    await buildReadmeWorkflow(hands);
    await hands.press('Save draft');
    await page.getByText('Draft saved.').waitFor();
    assert.deepEqual(await savedDefinition(suite.t, org, workflowId), { sensitive_data: false, ...readmeDefinition() });
    await testRunPublishAndTakeAWebhookCase(suite.t, org, page, hands);
    assertNoPageProblems(page);
    await context.close();
  });

  it('moves steps with their Move buttons, the focus staying on the moved step, or by dragging them', async () => {
    const { org, workflowId, context, page } = await givenEmptyDraftInBuilder();
    const hands = keyboard(page);
    for (const [type, value] of [['fail', 'first'], ['fail', 'second']] as const) {
      await hands.choose('New step type for Open', type);
      await hands.press('Add step to Open');
      await hands.type(`Arguments of Open step ${value === 'first' ? 1 : 2}`, value);
    }
    await hands.press('Move Open step 2 up');
    // The keyboard follows the step (the app moves it once the list is drawn again).
    // A locator waits in the page's own script, which the CSP allows; a string waitForFunction polls with eval, which it refuses.
    await page.locator('button:focus', { hasText: 'Move Open step 1 down' }).waitFor();
    await page.keyboard.press('Enter');
    await hands.press('Move Open step 2 up');
    await hands.press('Save draft');
    await page.getByText('Draft saved.').waitFor();
    assert.deepEqual((await savedDefinition(suite.t, org, workflowId)).automations, { Open: [{ fail: 'second' }, { fail: 'first' }] });

    // The mouse may drag a step by its frame instead.
    const legend = (n: number) => page.getByRole('group', { name: `Open step ${n}:` }).locator('legend');
    await legend(2).dragTo(legend(1));
    assert.equal(await field(page, 'Arguments of Open step 1').inputValue(), 'first');
    await context.close();
  });

  it('keeps the JSON tab and the Builder in sync, and keeps invalid JSON on the JSON tab with a message', async () => {
    const { context, page } = await givenEmptyDraftInBuilder();
    await mouse(page).type('New status name', 'Triage');
    await mouse(page).press('Add status');
    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = JSON.parse(await page.getByLabel('Definition (JSON)').inputValue());
    assert.deepEqual(json.statuses, ['Triage']);

    await fillDefinition(page, { ...json, statuses: ['Triage', 'Escalated'], automations: { Escalated: [{ close: { outcome: 'Escalated away' } }] } });
    await page.getByRole('tab', { name: 'Builder' }).click();
    assert.equal(await field(page, 'Name of status 2').inputValue(), 'Escalated');
    assert.equal(await field(page, 'outcome').inputValue(), 'Escalated away');

    await page.getByRole('tab', { name: 'JSON' }).click();
    await page.getByLabel('Definition (JSON)').fill('{"name": ');
    await page.getByRole('tab', { name: 'Builder' }).click();
    await page.getByRole('alert').filter({ hasText: 'The definition is not valid JSON, so the Builder cannot show it' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'JSON' }).getAttribute('aria-selected'), 'true', 'still on the JSON tab');
    assert.equal(await page.getByLabel('Definition (JSON)').inputValue(), '{"name": ', 'the text is kept');
    await context.close();
  });

  it('shows a 422 next to the field its JSON Pointer names, and lists a pointer no field shows with the pointer', async () => {
    const { context, page } = await givenEmptyDraftInBuilder();
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/workflows\/[0-9]+$/ });
    const hands = mouse(page);
    // The Builder offers declared statuses only: an undeclared one comes from the JSON tab.
    await page.getByRole('tab', { name: 'JSON' }).click();
    const draft = JSON.parse(await page.getByLabel('Definition (JSON)').inputValue());
    await fillDefinition(page, { ...draft, automations: { Open: [{ set_status: 'Nowhere' }] } });
    await page.getByRole('tab', { name: 'Builder' }).click();
    await hands.press('Save draft');
    const input = field(page, 'Arguments of Open step 1');
    await page.getByText('status "Nowhere" is not declared').waitFor();
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    const describedBy = (await input.getAttribute('aria-describedby'))!.split(' ');
    assert.ok((await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()))).includes('status "Nowhere" is not declared'), 'the field names its error');
    assert.equal((await input.evaluate(placeOfFocus)) === 'here', true, 'the keyboard is taken to the field');
    assert.deepEqual(await axeSerious(page), [], 'the Builder with a refused draft');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = JSON.parse(await page.getByLabel('Definition (JSON)').inputValue());
    await fillDefinition(page, { ...json, automations: { Open: [{ set_status: 'Closed' }] }, colour: 'red' });
    await page.getByRole('tab', { name: 'Builder' }).click();
    await hands.press('Save draft');
    const unplaced = page.getByRole('alert').filter({ hasText: 'the form has no field for' });
    await unplaced.waitFor();
    assert.match((await unplaced.textContent())!, /\/colour.*unknown key/);
    await context.close();
  });

  it('passes axe-core (no serious or critical violation) on the Builder and JSON tabs of a full workflow, and fits a phone', async () => {
    const { context, page } = await givenEmptyDraftInBuilder();
    await buildReadmeWorkflow(mouse(page));
    await checkAtEachWidth(page, 'workflow-builder');
    assert.deepEqual(await axeSerious(page), [], 'the Builder');
    await page.getByRole('tab', { name: 'JSON' }).click();
    await page.getByLabel('Definition (JSON)').waitFor();
    assert.deepEqual(await axeSerious(page), [], 'the JSON tab');
    await context.close();
  });
});

describe('admin dashboard: an extension’s step type in the builder', () => {
  const suite = dashboardSuite({ extensions: [TicketExtensionModule] });

  it('offers open_ticket with a form generated from its schema, which saves valid arguments', async () => {
    const org = await createOrganization(suite.t);
    const workflowId = await createWorkflow(suite.t, org, { name: 'Tickets', case_source: 'direct' }, false);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    await page.goto(`/dashboard/workflows/${workflowId}?tab=builder`);
    await page.getByRole('heading', { name: 'Automations' }).waitFor();
    const hands = mouse(page);
    await hands.choose('New step type for Open', 'open_ticket');
    await hands.press('Add step to Open');
    await page.getByRole('group', { name: 'Arguments of Open step 1' }).waitFor();
    await hands.type('url (required)', 'https://tickets.example/api/tickets');
    await hands.type('title (required)', 'Case {{ case.id }}');
    await hands.type('retries', '2');
    await hands.press('Save draft');
    await page.getByText('Draft saved.').waitFor();
    const saved = await suite.t.request('GET', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken });
    assert.deepEqual(saved.body.workflow.automations, { Open: [{ open_ticket: { url: 'https://tickets.example/api/tickets', title: 'Case {{ case.id }}', retries: 2 } }] });
    assertNoPageProblems(page);
    await context.close();
  });
});
