/**
 * The dashboard's workflow pages and case timeline in headless Chromium: publishing only a
 * changed draft, definitions shown in the order saved, timeline entries in the order things
 * happened, and Case Configuration offering only what fits the workflow's case source.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertNoPageProblems, expectHttpError } from '../support/browser.js';
import { dashboardSuite, fillDefinition, givenSignedIn, heading, tableRows } from '../support/browser-dashboard.js';
import { createdCaseId, givenCasesWorkflow, wholeTimeline } from '../support/cases-api.js';
import { emailDefinition } from '../support/email-helpers.js';
import { formDefinition } from '../support/form-helpers.js';
import { createOrganization, createWorkflow } from '../support/scenario.js';

/** Attribute names in an order jsonb would change (it orders keys by length, then bytes). */
const ATTRIBUTES = {
  zeta_customer_reference: { type: 'string' },
  b: { type: 'integer', required: true },
  middle: { type: 'string', format: 'email' },
};

const definition = (overrides: Record<string, unknown> = {}) => ({
  name: 'Orders',
  case_source: 'direct',
  sensitive_data: false,
  statuses: ['Triage'],
  default_outcome: null,
  attributes: ATTRIBUTES,
  automations: { Open: [{ set_attributes: { seen: true } }, { set_status: 'Triage' }] },
  ...overrides,
});

describe('admin dashboard: workflow editing and the case timeline in the browser', () => {
  const suite = dashboardSuite();

  /** A new organization's unpublished workflow, open on its page. */
  async function givenDraftShown() {
    const org = await createOrganization(suite.t);
    const workflowId = await createWorkflow(suite.t, org, definition(), false);
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    await page.goto(`/dashboard/workflows/${workflowId}`);
    await heading(page, 'Orders').waitFor();
    return { org, workflowId, context, page };
  }

  it('offers "Publish draft" only while the draft differs from the published version, saying why when it does not', async () => {
    const { org, workflowId, context, page } = await givenDraftShown();
    await page.getByText('Publishing freezes the draft as version 1.').waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published version 1.').waitFor();

    const publishDraft = page.getByRole('button', { name: 'Publish draft' });
    assert.equal(await publishDraft.isDisabled(), true, 'the draft is the published version');
    const reasonId = await publishDraft.getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${reasonId}"]`).textContent(), 'The draft is the published version 1: change it to publish a new version.');

    await page.getByRole('tab', { name: 'JSON' }).click();
    await fillDefinition(page, definition({ statuses: ['Triage', 'Escalated'] }));
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    assert.equal(await publishDraft.isDisabled(), false, 'a changed draft can be published');
    await page.getByText('Publishing freezes the draft as version 2.').waitFor();
    await publishDraft.click();
    await page.getByText('Published version 2.').waitFor();
    assert.equal(await publishDraft.isDisabled(), true);
    const versions = await suite.t.request('GET', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken });
    assert.deepEqual([versions.body.workflow.version, versions.body.workflow.draft_changed], [2, false]);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows a definition with its attributes in the order saved, on the Overview and in the editor', async () => {
    const { context, page } = await givenDraftShown();
    assert.deepEqual((await tableRows(page, 'Attribute schema')).map((row) => row[0]), Object.keys(ATTRIBUTES));
    await page.getByRole('tab', { name: 'JSON' }).click();
    assert.deepEqual(Object.keys(JSON.parse(await page.getByLabel('Definition (JSON)').inputValue()).attributes), Object.keys(ATTRIBUTES));
    assertNoPageProblems(page);
    await context.close();
  });

  it('lists a case’s timeline in the order things happened (a run’s status change before the run’s end), naming the API token that made the case', async () => {
    const f = await givenCasesWorkflow(suite.t, definition());
    const caseId = await createdCaseId(f, { attributes: { b: 1 } });
    let events: { id: number; type: string }[] = [];
    for (let attempt = 0; attempt < 200 && !events.some((e) => e.type === 'run_succeeded'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      events = await wholeTimeline(suite.t, f.org.adminToken, caseId);
    }
    const happened = ['created', 'run_started', 'attributes_changed', 'status_changed', 'run_succeeded'];
    assert.deepEqual(events.map((e) => e.type), happened);
    // Pages of one event follow the same order.
    const paged: string[] = [];
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const res = await suite.t.request('GET', `/api/admin/v1/cases/${caseId}/timeline?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { token: f.org.adminToken });
      paged.push(...res.body.events.map((e: { type: string }) => e.type));
      cursor = res.body.next_cursor;
    }
    assert.deepEqual(paged, happened);

    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, f.org);
    await page.goto(`/dashboard/cases/${caseId}`);
    await heading(page, `Case #${caseId}`).waitFor();
    await page.locator('.timeline__event').nth(4).waitFor();
    assert.deepEqual(await page.locator('.timeline__type').allTextContents(), ['Created', 'Run started', 'Attributes changed', 'Status changed', 'Run succeeded']);
    assert.equal(await page.locator('.timeline__meta > span').first().textContent(), 'by API token “api token”', 'the token by its name');
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows an email or ticketing workflow’s own way in on Case Configuration, and asks for no webhook URL', async () => {
    const org = await createOrganization(suite.t);
    const emailId = await createWorkflow(suite.t, org, emailDefinition());
    const formId = await createWorkflow(suite.t, org, formDefinition({ name: 'IT requests' }));
    const { context, page } = await givenSignedIn(suite.t, suite.browser, suite.baseUrl, org);
    expectHttpError(page, { status: 404, url: /\/api\/admin\/v1\/workflows\/[0-9]+\/(email_address|form)$/ }); // none generated yet
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/')) asked.push(new URL(request.url()).pathname);
    });
    for (const [id, name, card, button] of [[emailId, 'Support inbox', 'Inbound Email', 'Generate email address'], [formId, 'IT requests', 'Request Form', 'Generate form URL']] as const) {
      await page.goto(`/dashboard/workflows/${id}?tab=case-configuration`);
      await heading(page, name).waitFor();
      await page.getByRole('region', { name: card }).getByRole('button', { name: button }).waitFor();
      assert.equal(await page.getByRole('region', { name: 'Incoming Webhook' }).count(), 0, `${name}: no webhook card`);
      assert.equal(await page.getByRole('region', { name: 'Cases API' }).count(), 0, `${name}: the cases API creates no case in it`);
    }
    assert.deepEqual(asked.filter((path) => path.endsWith('/webhook')), [], 'no request for a webhook URL');
    assert.ok(asked.includes(`/api/admin/v1/workflows/${emailId}/email_address`) && asked.includes(`/api/admin/v1/workflows/${formId}/form`), asked.join(' '));
    assertNoPageProblems(page);
    await context.close();
  });
});
