/**
 * The admin dashboard at /dashboard, driven in headless Chromium (playwright-core): it must
 * do its work through the admin API only, under the strict content security policy, without
 * console errors, usable at 1280 px and 390 px and with the keyboard. Screenshots of each
 * page at both widths go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoPageProblems, checkAtEachWidth, expectHttpError, focused, launchChromium, newContext, openPage, pageProblems, sessionStorageLength } from '../support/browser.js';
import type { Page } from 'playwright-core';
import { clipboard, detail, fillDefinition, freeLoopbackPort, givenSignedIn, givenSignedInOwner, goToSection, heading, listenOnLoopback, signIn, tableRecords, tableRows, workflowIdFromUrl } from '../support/browser-dashboard.js';
import { fromDashboard, givenOwner } from '../support/people-helpers.js';
import { createdCaseId, givenCasesWorkflow, patchCase } from '../support/cases-api.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, givenDirectWorkflow, sampleDefinition, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A direct workflow whose Open run moves each case on to Triage. */
const BROWSER_DEFINITION = {
  name: 'Browser intake',
  case_source: 'direct',
  sensitive_data: false,
  statuses: ['Triage'],
  default_outcome: 'Resolved',
  attributes: { customer_email: { type: 'string', required: true, format: 'email' }, order_ref: { type: 'string' } },
  automations: { Open: [{ set_status: 'Triage' }] },
};

const NO_WEBHOOK_YET = { status: 404, url: /\/api\/admin\/v1\/workflows\/[0-9]+\/webhook$/ };
const REFUSED_TOKEN = { status: 401, url: /\/api\/admin\/v1\// };

async function apiGet(t: TestApp, org: Organization, path: string) {
  const res = await t.request('GET', `/api/admin/v1${path}`, { token: org.adminToken });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Waits (bounded) until the case's Open run has moved it to Triage and finished. */
/** The case list's cells of these columns, row by row (a role that works cases sees more columns: a selection box, assignee, priority). */
async function caseColumns(page: Page, ...columns: string[]): Promise<string[][]> {
  return (await tableRecords(page, 'Cases')).map((row) => columns.map((column) => row[column]!));
}

async function untilAutomationDone(t: TestApp, org: Organization, caseId: number): Promise<{ type: string }[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { events } = await apiGet(t, org, `/cases/${caseId}/timeline`);
    if (events.some((e: { type: string }) => e.type === 'run_succeeded')) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the Open run of case ${caseId} did not finish`);
}

describe('admin dashboard in the browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  before(async () => {
    // Served at its own PUBLIC_BASE_URL: an owner's session changes things only from the service's origin.
    const port = await freeLoopbackPort();
    t = await startTestApp({ env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } });
    const built = await t.request('GET', '/dashboard/');
    assert.equal(built.status, 200, 'the dashboard is not built next to the compiled app: `npm test` builds it with `vite build --outDir build/src/dashboard`');
    baseUrl = await listenOnLoopback(t, port);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await closeDb();
  });

  it('serves the dashboard pages and assets under a strict content security policy', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/workflows/12', '/dashboard/cases/3?x=1', '/dashboard/tokens']) {
      const page = await t.request('GET', path);
      assert.equal(page.status, 200, path);
      assert.match(String(page.headers['content-type']), /^text\/html/, path);
      assert.equal(page.headers['content-security-policy'], CSP, path);
      assert.equal(page.headers['x-frame-options'], 'DENY', path);
      assert.match(page.text, /<div id="app"><\/div>/, path);
    }
    const html = (await t.request('GET', '/dashboard/')).text;
    // Nothing inline: every script is a file, no <style> element, no style attribute.
    assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/);
    assert.doesNotMatch(html, /<style|\sstyle=/);
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(assets.map((a) => a.split('.').pop()).sort(), ['css', 'js']);
    for (const asset of assets) {
      const res = await t.request('GET', asset);
      assert.equal(res.status, 200, asset);
      assert.match(String(res.headers['content-type']), asset.endsWith('.js') ? /javascript/ : /^text\/css/, asset);
      assert.equal(res.headers['content-security-policy'], CSP, asset);
    }
    assert.equal((await t.request('GET', '/dashboard/assets/missing-1234.js')).status, 404);

    // The browser enforces the policy, and the tests' watch notices a violation.
    const context = await newContext(browser, baseUrl);
    const page = await openPage(context);
    await page.goto('/dashboard/');
    await heading(page, 'Sign in to the admin dashboard').waitFor();
    assertNoPageProblems(page);
    await page.evaluate(`document.body.setAttribute('style', 'color: red'); document.head.append(Object.assign(document.createElement('script'), { textContent: 'window.inlineRan = true' }))`);
    assert.equal(await page.evaluate<boolean>('window.inlineRan === true'), false, 'an inline script is refused');
    const reported = (kind: string) => pageProblems(page).some((p) => p.startsWith(`console error: CSP violation: ${kind}`));
    for (let i = 0; i < 100 && !(reported('style-src') && reported('script-src')); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(reported('style-src') && reported('script-src'), pageProblems(page).join('\n'));
    await context.close();
  });

  it('signs in and out with the keyboard, and refuses a wrong token', async () => {
    const org = await createOrganization(t);
    const context = await newContext(browser, baseUrl);
    const page = await openPage(context);
    expectHttpError(page, REFUSED_TOKEN);
    await page.goto('/dashboard/workflows');
    await heading(page, 'Sign in to the admin dashboard').waitFor();
    await checkAtEachWidth(page, 'sign-in');

    // Past the email address, its two ways in and the "Advanced" disclosure, which Enter opens.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Advanced: sign in with an admin token');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'admin-token');
    assert.match((await focused(page)).outline, /^solid [1-9]/, 'a visible focus ring');
    await page.keyboard.type('adm_not-a-real-token');
    await page.keyboard.press('Tab');
    assert.deepEqual([(await focused(page)).tag, (await focused(page)).text], ['button', 'Sign in']);
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'This token was not accepted.' }).waitFor();
    assert.equal(await sessionStorageLength(page), 0);

    await page.getByLabel('Admin token').fill(org.adminToken);
    await page.getByLabel('Admin token').press('Enter');
    await heading(page, 'Workflows').waitFor();
    assert.equal(await page.evaluate<string | null>("sessionStorage.getItem('case-intake.admin-token')"), org.adminToken);

    // From the top of the page, Tab reaches the main navigation; Enter follows a link.
    await page.reload();
    await heading(page, 'Workflows').waitFor();
    const tabStops: string[] = [];
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      assert.notEqual(now.outline.split(' ')[0], 'none', `focus ring on ${now.text}`);
      tabStops.push(now.text);
    }
    assert.deepEqual(tabStops, ['Skip to content', 'Case IntakeAdmin', 'Workflows', 'Cases', 'Reports', 'Usage', 'Subscriptions', 'Settings', 'Sign out']);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await heading(page, 'Usage').waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard/usage');
    await page.waitForFunction("document.activeElement.id === 'page-title'"); // the new page's heading has the focus

    // On a phone the navigation sits behind a Menu button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await heading(page, 'Usage').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Cases' }).isVisible(), false);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Menu');
    await page.keyboard.press('Enter');
    assert.equal(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Cases');
    await page.keyboard.press('Enter');
    await heading(page, 'Cases').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded'), 'false');

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in to the admin dashboard').waitFor();
    await page.getByText('You signed out.').waitFor();
    assert.equal(await sessionStorageLength(page), 0);
    assertNoPageProblems(page);
    await context.close();
  });

  it('creates and publishes a workflow, generates its webhook URL, and follows a webhook case to its timeline', async () => {
    const { org, context, page } = await givenSignedIn(t, browser, baseUrl);
    expectHttpError(page, NO_WEBHOOK_YET);
    await page.getByText('No workflows yet').waitFor();
    await checkAtEachWidth(page, 'workflows-empty');

    await page.getByRole('link', { name: 'New workflow' }).first().click();
    await heading(page, 'New workflow').waitFor();
    await page.getByRole('tab', { name: 'JSON' }).click();
    const template = JSON.parse(await page.getByLabel('Definition (JSON)').inputValue());
    assert.equal(template.case_source, 'direct', 'the editor starts from a template');
    await checkAtEachWidth(page, 'workflow-new');
    await fillDefinition(page, BROWSER_DEFINITION);
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await heading(page, 'Browser intake').waitFor();
    const workflowId = workflowIdFromUrl(page);
    const created = (await apiGet(t, org, `/workflows/${workflowId}`)).workflow;
    assert.deepEqual([created.name, created.published, created.version], ['Browser intake', false, null]);

    // Overview: statuses, attribute schema, automations.
    assert.equal(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected'), 'true');
    assert.deepEqual(await page.locator('.chip > span:first-child').allTextContents(), ['Open', 'Closed', 'Error', 'Triage']);
    const attributeRows: Record<string, string[]> = {
      customer_email: ['customer_email', 'string', 'Required', 'email', 'Any'],
      order_ref: ['order_ref', 'string', 'Optional', '—', 'Any'],
    };
    assert.deepEqual(await tableRows(page, 'Attribute schema'), Object.keys(BROWSER_DEFINITION.attributes).map((name) => attributeRows[name]));
    assert.match((await page.locator('.automation pre').textContent()) ?? '', /"set_status": "Triage"/);
    await checkAtEachWidth(page, 'workflow-overview');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published version 1.').waitFor();
    await page.getByText('Published · v1').waitFor();
    const published = (await apiGet(t, org, `/workflows/${workflowId}`)).workflow;
    assert.deepEqual([published.published, published.version], [true, 1]);

    // Case Configuration -> Case Sources -> Incoming Webhook -> Generate webhook URL.
    await page.getByRole('tab', { name: 'Case Configuration' }).click();
    await page.getByRole('heading', { name: 'Case Sources' }).waitFor();
    await page.getByRole('heading', { name: 'Incoming Webhook' }).waitFor();
    await page.getByRole('button', { name: 'Generate webhook URL' }).click();
    const webhookUrl = await page.getByLabel('Webhook URL').inputValue();
    assert.equal(webhookUrl, (await apiGet(t, org, `/workflows/${workflowId}/webhook`)).webhook.url);
    assert.match(webhookUrl, new RegExp(`/api/external/v1/workflows/${workflowId}/case_webhooks\\?token=whk_`));
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await clipboard(page), webhookUrl);
    const curl = (await page.locator('figure', { hasText: 'Try it with curl' }).locator('code').textContent()) ?? '';
    assert.ok(curl.startsWith(`curl -X POST '${webhookUrl}'`), curl);
    assert.match(curl, /-d '\{"customer_email":"customer@example.com"\}'/);
    assert.equal(new URL(page.url()).pathname, `/dashboard/workflows/${workflowId}`);
    await checkAtEachWidth(page, 'workflow-case-configuration');

    // Coming back shows the same URL (GET), with no second "generate".
    await page.reload();
    assert.equal(await page.getByLabel('Webhook URL').inputValue(), webhookUrl);
    assert.equal(await page.getByRole('button', { name: 'Generate webhook URL' }).count(), 0);

    // A sender posts to the URL (the service builds it from PUBLIC_BASE_URL, so post to the path here).
    const target = new URL(webhookUrl);
    const attributes = { customer_email: 'ada@example.com', order_ref: 'A-1001' };
    const posted = await fetch(`${baseUrl}${target.pathname}${target.search}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(attributes) });
    assert.equal(posted.status, 201);
    const caseId: number = ((await posted.json()) as { case: { id: number } }).case.id;
    const events = await untilAutomationDone(t, org, caseId);

    await goToSection(page, 'Workflows');
    assert.deepEqual((await tableRows(page, 'Workflows')).map((row) => row.slice(0, 4)), [['Browser intake', String(workflowId), 'Direct', 'Published · v1']]);
    await checkAtEachWidth(page, 'workflows');

    await goToSection(page, 'Cases');
    const rows = await caseColumns(page, 'Case', 'Workflow', 'Status', 'Source', 'Mode', 'Subject');
    assert.deepEqual(
      rows.map((row) => row.slice(0, 5)),
      [[`#${caseId}`, 'Browser intake', 'Triage', 'Webhook', 'Live']],
    );
    assert.match(rows[0]![5]!, /^Browser intake via Webhook - \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    await checkAtEachWidth(page, 'cases');

    await page.getByRole('link', { name: `#${caseId}` }).click();
    await heading(page, `Case #${caseId}`).waitFor();
    assert.equal(await detail(page, 'Source').textContent(), 'Webhook');
    assert.equal(await detail(page, 'Status').textContent(), 'Triage');
    assert.equal(await detail(page, 'Mode').textContent(), 'Live');
    // The workflow's name comes in its own request: until then the link shows the workflow's id.
    await detail(page, 'Workflow').filter({ hasText: 'Browser intake' }).waitFor();
    assert.equal(await detail(page, 'Workflow').textContent(), 'Browser intake');
    const listed = (await apiGet(t, org, `/cases?workflow_id=${workflowId}`)).cases;
    assert.equal(await page.locator('section', { hasText: 'Attributes' }).locator('pre').textContent(), JSON.stringify(listed[0].attributes, null, 2));
    const shown = await page.locator('.timeline__type').allTextContents();
    assert.deepEqual(shown, events.map((e) => (e.type.charAt(0).toUpperCase() + e.type.slice(1)).replace(/_/g, ' ')));
    const first = page.locator('.timeline__event').first();
    assert.match((await first.textContent()) ?? '', /Createdby Incoming webhook.*Created from Webhook in Open/);
    await checkAtEachWidth(page, 'case');
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows the definition’s validation errors at their JSON Pointer paths and saves a valid draft', async () => {
    const { org, context, page } = await givenSignedIn(t, browser, baseUrl);
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/workflows\/[0-9]+$/ });
    const workflowId = await createWorkflow(t, org, sampleDefinition(), false);
    await page.goto(`/dashboard/workflows/${workflowId}?tab=json`);
    await heading(page, 'Customer escalations').waitFor();
    assert.deepEqual(JSON.parse(await page.getByLabel('Definition (JSON)').inputValue()), sampleDefinition(), 'the editor holds the definition as written');

    await page.goto(`/dashboard/workflows/new`);
    await page.getByRole('tab', { name: 'JSON' }).click();
    for (const name of ['Empty', 'Support request', 'Webhook triage']) {
      await page.getByRole('radio', { name: new RegExp(`^${name}`) }).check();
      const template = JSON.parse(await page.getByLabel('Definition (JSON)').inputValue());
      assert.equal((await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: template })).status, 201, `the ${name} template is a valid definition`);
    }
    await page.goto(`/dashboard/workflows/${workflowId}?tab=json`);
    await page.getByLabel('Definition (JSON)').waitFor();

    const invalid = sampleDefinition({ statuses: ['Open', 'Triage'], attributes: { amount: { type: 'money' } } });
    await fillDefinition(page, invalid);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.locator('.validation').waitFor();
    const expected = await t.request('PUT', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken, body: invalid });
    assert.equal(expected.status, 422);
    const listed = await page.locator('.validation__item').evaluateAll((items) =>
      items.map((item) => [(item as unknown as { querySelector(s: string): { textContent: string } }).querySelector('.validation__path').textContent, (item as unknown as { querySelector(s: string): { textContent: string } }).querySelector('.validation__error').textContent]),
    );
    assert.deepEqual(listed, expected.body.validation_errors.map((e: { path: string; error: string }) => [e.path === '' ? '(root)' : e.path, e.error]));
    assert.ok(listed.some(([path]) => path === '/statuses/0'), JSON.stringify(listed));
    await page.getByRole('button', { name: 'Show in editor (/statuses/0)' }).click();
    assert.equal(await page.evaluate<string>('(() => { const el = document.activeElement; return el.value.slice(el.selectionStart, el.selectionEnd); })()'), '"Open"');
    await checkAtEachWidth(page, 'workflow-definition-errors');
    assert.deepEqual((await apiGet(t, org, `/workflows/${workflowId}`)).workflow.statuses, ['Open', 'Closed', 'Error', 'Triage', 'Waiting on customer'], 'the draft is unchanged');

    await page.getByLabel('Definition (JSON)').fill('{"name": ');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('alert').filter({ hasText: 'The definition is not valid JSON' }).waitFor();

    await fillDefinition(page, sampleDefinition({ statuses: ['Triage', 'Escalated'] }));
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    assert.equal(await page.locator('.validation').count(), 0);
    const saved = (await apiGet(t, org, `/workflows/${workflowId}`)).workflow;
    assert.deepEqual([saved.statuses, saved.published], [['Open', 'Closed', 'Error', 'Triage', 'Escalated'], false]);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows a workflow\'s webhook de-duplication and keeps it when the draft is saved from the editor', async () => {
    const { org, context, page } = await givenSignedIn(t, browser, baseUrl);
    const definition = sampleDefinition({ webhook_dedup: { key: '/delivery_id', window_seconds: 3600 } });
    const workflowId = await createWorkflow(t, org, definition, false);
    await page.goto(`/dashboard/workflows/${workflowId}`);
    await page.getByText('One case per /delivery_id within 3600 s').waitFor();
    await page.goto(`/dashboard/workflows/${workflowId}?tab=json`);
    assert.deepEqual(JSON.parse(await page.getByLabel('Definition (JSON)').inputValue()), definition, 'the editor holds the setting as written');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    assert.deepEqual((await apiGet(t, org, `/workflows/${workflowId}`)).workflow.webhook_dedup, { key: '/delivery_id', window_seconds: 3600 });
    assertNoPageProblems(page);
    await context.close();
  });

  it('creates a token whose secret is shown once, and deletes it after confirmation', async () => {
    const { org, context, page } = await givenSignedIn(t, browser, baseUrl);
    await goToSection(page, 'Tokens');
    await page.getByLabel('Name').fill('Deploy bot');
    await page.getByLabel('Scope').selectOption('admin');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('It will not be shown again').waitFor();
    const secret = await page.getByLabel('Secret').inputValue();
    assert.match(secret, /^adm_/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await clipboard(page), secret);
    const listed = (await t.request('GET', '/api/admin/v1/tokens', { token: secret })).body.tokens.map((tk: { name: string; scope: string }) => [tk.name, tk.scope]);
    assert.deepEqual(listed, [['Initial admin token', 'admin'], ['Deploy bot', 'admin']], 'the new secret works');
    const rows = await tableRows(page, 'Active tokens');
    assert.deepEqual(rows.map((row) => [row[0], row[1], row[4]]), [['Initial admin token', 'Admin', 'Delete token Initial admin token'], ['Deploy bot', 'Admin', 'Delete token Deploy bot']]);
    assert.equal(rows[1]![3], 'Never');
    await checkAtEachWidth(page, 'tokens-secret');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await page.getByLabel('Secret').count(), 0);
    assert.ok(!(await page.content()).includes(secret), 'the secret is gone from the page');

    // Cancelling (Escape) keeps the token; confirming deletes it.
    const dialog = page.getByRole('dialog', { name: 'Delete this token?' });
    await page.getByRole('button', { name: 'Delete token Deploy bot' }).click();
    await dialog.waitFor();
    assert.equal(await page.evaluate<boolean>("!!document.activeElement.closest('dialog')"), true, 'focus moves into the dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await t.request('GET', '/api/admin/v1/tokens', { token: secret })).status, 200);
    await page.getByRole('button', { name: 'Delete token Deploy bot' }).click();
    await dialog.waitFor();
    await checkAtEachWidth(page, 'tokens-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete token' }).click();
    await page.getByText('Token “Deploy bot” was deleted.').waitFor();
    assert.deepEqual((await tableRows(page, 'Active tokens')).map((row) => row[0]), ['Initial admin token']);
    assert.equal((await t.request('GET', '/api/admin/v1/tokens', { token: secret })).status, 401);
    assert.deepEqual((await apiGet(t, org, '/tokens')).tokens.map((tk: { name: string }) => tk.name), ['Initial admin token']);
    assertNoPageProblems(page);
    await context.close();
  });

  it('lists a token created while the list was still being read with the others, not alone and not lost to the older answer', async () => {
    const { context, page } = await givenSignedIn(t, browser, baseUrl);
    // The first read of the list is answered only after the token is created: an answer read before the change.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: Promise<void> | undefined;
    await page.route('**/api/admin/v1/tokens', (route) => {
      if (route.request().method() !== 'GET' || held) return route.continue();
      held = route.fetch().then(async (answer) => {
        await released;
        await route.fulfill({ response: answer });
      });
      return held;
    });
    await goToSection(page, 'Tokens');
    await page.getByLabel('Name').fill('Made early');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('It will not be shown again').waitFor();
    release();
    await held;
    const table = page.getByRole('region', { name: 'Active tokens' });
    for (const name of ['Initial admin token', 'Made early']) await table.getByRole('rowheader', { name, exact: true }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual((await tableRows(page, 'Active tokens')).map((row) => row[0]), ['Initial admin token', 'Made early']);
    assertNoPageProblems(page);
    await context.close();
  });

  it('filters and pages through cases, marks test cases, and opens a case by its address', async () => {
    const w = await givenDirectWorkflow(t);
    const ids: number[] = [];
    for (let i = 0; i < 26; i++) {
      const res = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: `c${i}@example.com` } } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.case.id);
    }
    const test = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: 't@example.com' }, mode: 'test' } });
    assert.equal(test.status, 201, test.text);
    const webhook = await generateWebhook(t, w.org, w.workflowId);
    const fromWebhook = await t.request('POST', webhook.path, { body: { customer_email: 'w@example.com' } });
    assert.equal(fromWebhook.status, 201, fromWebhook.text);
    const [testId, webhookId] = [test.body.case.id as number, fromWebhook.body.case.id as number];

    const { page, context } = await givenSignedIn(t, browser, baseUrl, w.org);
    await goToSection(page, 'Cases');
    const firstPage = await caseColumns(page, 'Case', 'Source', 'Mode');
    assert.deepEqual(firstPage.map((row) => row[0]), [webhookId, testId, ...ids.slice(-23).reverse()].map((id) => `#${id}`));
    assert.deepEqual(firstPage.slice(0, 3).map((row) => [row[1], row[2]]), [['Webhook', 'Live'], ['API', 'Test'], ['API', 'Live']]);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 · 3 cases').waitFor();
    assert.deepEqual((await caseColumns(page, 'Case')).map((row) => row[0]), ids.slice(0, 3).reverse().map((id) => `#${id}`));
    assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText('Page 1 · 25 cases').waitFor();

    await page.getByLabel('Source').selectOption('Webhook');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/\/dashboard\/cases\?source=Webhook$/);
    await page.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    assert.deepEqual(await caseColumns(page, 'Case', 'Source'), [[`#${webhookId}`, 'Webhook']]);
    await checkAtEachWidth(page, 'cases-filtered');

    await page.getByLabel('Source').selectOption('');
    await page.getByLabel('Mode').selectOption('test');
    await page.getByLabel('Workflow').selectOption(String(w.workflowId));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`/dashboard/cases\\?workflow_id=${w.workflowId}&mode=test$`));
    await page.getByRole('link', { name: `#${testId}` }).waitFor();
    assert.deepEqual(await caseColumns(page, 'Case', 'Mode'), [[`#${testId}`, 'Test']]);

    // Opened by its address (nothing remembered from a list): found through the admin case list.
    await page.goto(`/dashboard/cases/${ids[4]}`);
    await heading(page, `Case #${ids[4]}`).waitFor();
    assert.deepEqual(
      [await detail(page, 'Case ID').textContent(), await detail(page, 'Source').textContent(), await detail(page, 'Status').textContent(), await detail(page, 'Mode').textContent()],
      [String(ids[4]), 'API', 'Open', 'Live'],
    );
    assert.equal(await page.locator('section', { hasText: 'Attributes' }).locator('pre').textContent(), JSON.stringify({ customer_email: 'c4@example.com' }, null, 2));
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows a long timeline a page at a time: later events on demand, in order', async () => {
    const f = await givenCasesWorkflow(t);
    const caseId = await createdCaseId(f);
    for (let i = 0; i < 100; i++) assert.equal((await patchCase(f, caseId, { status: i % 2 ? 'Open' : 'Triage' })).status, 200);
    const { page, context } = await givenSignedIn(t, browser, baseUrl, f.org);
    await page.goto(`/dashboard/cases/${caseId}`);
    await heading(page, `Case #${caseId}`).waitFor();
    const events = page.locator('.timeline__event');
    await events.nth(99).waitFor();
    assert.equal(await events.count(), 100, 'the first page');
    await page.getByRole('button', { name: 'Show later events' }).click();
    await events.nth(100).waitFor();
    assert.equal(await events.count(), 101);
    assert.equal(await page.getByRole('button', { name: 'Show later events' }).count(), 0, 'nothing more to show');
    assert.deepEqual((await page.locator('.timeline__type').allTextContents()).slice(0, 2), ['Created', 'Status changed']);
    assertNoPageProblems(page);
    await context.close();
  });

  it('filters cases by creation day (UTC) and by the attributes they contain, and refuses a search that is not a JSON object', async () => {
    const w = await givenDirectWorkflow(t);
    const caseOn = async (day: string, time: string, customer: Record<string, unknown>) => {
      const res = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: 'x@example.com', customer } } });
      assert.equal(res.status, 201, res.text);
      await db().query('UPDATE cases SET created_at = $2 WHERE id = $1', [res.body.case.id, `${day}T${time}Z`]);
      return `#${res.body.case.id}`;
    };
    const first = await caseOn('2026-03-01', '23:59:59.999', { tier: 'gold', since: 2019 });
    const second = await caseOn('2026-03-02', '00:00:00', { tier: 'silver' });
    const third = await caseOn('2026-03-03', '12:00:00', { tier: 'gold' });

    const { page, context } = await givenSignedIn(t, browser, baseUrl, w.org);
    const listed = async () => (await caseColumns(page, 'Case')).map((row) => row[0]);
    await page.goto(`/dashboard/cases?workflow_id=${w.workflowId}`);
    await page.getByRole('link', { name: first }).waitFor();
    assert.deepEqual(await listed(), [third, second, first]);

    await page.getByLabel('Created from (UTC)').fill('2026-03-02');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`/dashboard/cases\\?workflow_id=${w.workflowId}&created_from=2026-03-02$`));
    await page.getByRole('link', { name: first }).waitFor({ state: 'detached' });
    assert.deepEqual(await listed(), [third, second], 'from the first instant of the day');

    await page.getByLabel('Created to (UTC)').fill('2026-03-02');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: third }).waitFor({ state: 'detached' });
    assert.deepEqual(await listed(), [second], 'to the last instant of the day');

    await page.getByLabel('Created from (UTC)').fill('');
    await page.getByLabel('Created to (UTC)').fill('');
    await page.getByLabel('Attributes contain').fill('{"customer": {"tier": "gold"}}');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/attributes=/);
    await page.getByRole('link', { name: second }).waitFor({ state: 'detached' });
    assert.deepEqual(await listed(), [third, first], 'nested attributes match by containment');
    await checkAtEachWidth(page, 'cases-attribute-filter');

    const before = page.url();
    await page.getByLabel('Attributes contain').fill('tier=gold');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter a JSON object' }).waitFor();
    assert.equal(page.url(), before, 'nothing is asked of the API');
    assert.equal(await page.getByLabel('Attributes contain').getAttribute('aria-invalid'), 'true');
    assertNoPageProblems(page);
    await context.close();
  });

  it('charts live usage per workflow and per day, with test usage apart', async () => {
    const w = await givenDirectWorkflow(t, sampleDefinition({ name: 'Usage intake', automations: { Open: [{ set_attributes: { vip: true } }] } }));
    for (const mode of ['live', 'live', 'test']) {
      const res = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: 'u@example.com' }, mode } });
      assert.equal(res.status, 201, res.text);
    }
    const { page, context } = await givenSignedIn(t, browser, baseUrl, w.org);
    await goToSection(page, 'Usage');
    const stat = (label: string) => page.locator(`.stat dt:text-is("${label}") + dd`).textContent();
    await page.locator('.stat').first().waitFor();
    assert.deepEqual([await stat('Live cases'), await stat('Live runs'), await stat('Test cases'), await stat('Test runs')], ['2', '2', '1', '1']);
    // The figures may come before the workflows' names (two requests): a row reads "Workflow #<id>" until they do.
    await page.getByRole('region', { name: 'Usage per workflow' }).locator('tbody th', { hasText: 'Usage intake' }).waitFor();
    assert.deepEqual(await tableRows(page, 'Usage per workflow'), [['Usage intake', '2', '2', '1', '1']]);
    const perWorkflow = await page.getByRole('img', { name: /^Live cases and runs per workflow/ }).getAttribute('aria-label');
    assert.equal(perWorkflow, 'Live cases and runs per workflow. Usage intake: 2 live cases, 2 live runs');
    const perDay = (await page.getByRole('img', { name: /^Live cases and runs per day/ }).getAttribute('aria-label')) ?? '';
    const days = perDay.replace(/^[^.]*\. /, '').split('; ');
    assert.equal(days.length, 7);
    assert.match(days[6]!, /: 2 live cases, 2 live runs$/, 'today, last');
    assert.ok(days.slice(0, 6).every((day) => day.endsWith(': 0 live cases, 0 live runs')), perDay);
    await checkAtEachWidth(page, 'usage');

    const request = page.waitForRequest(/\/api\/admin\/v1\/usage\?/);
    await page.getByText('Last 30 days').click();
    const params = new URL((await request).url()).searchParams;
    const days30 = (Date.parse(params.get('to')!) - Date.parse(params.get('from')!)) / 86_400_000;
    assert.ok(days30 > 29 && days30 <= 30, `29 whole calendar days and today so far: ${days30} days`);
    assert.deepEqual([await stat('Live cases'), await stat('Test cases')], ['2', '1']);
    assertNoPageProblems(page);
    await context.close();
  });

  it('sets a retention period with the keyboard, shows a refused one at its field, and clears it back to the default', async () => {
    const { org, context, page } = await givenSignedInOwner(t, browser, baseUrl);
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/retention$/ });
    const { defaults } = await apiGet(t, org, '/retention');
    const inForce = (key: string) => page.locator(`#retention-${key}-in-force`).textContent();
    const badge = (title: string) => page.getByRole('region', { name: title }).locator('.badge').textContent();
    await goToSection(page, 'Retention');
    await page.getByLabel('Keep finished runs for (days)').waitFor();
    assert.equal(await page.getByLabel('Keep finished runs for (days)').inputValue(), '');
    assert.equal(await inForce('runs_days'), `In force: ${defaults.runs_days} days, the deployment default.`);
    assert.equal(await badge('Finished runs'), 'Deployment default');
    await checkAtEachWidth(page, 'retention');

    // From the page's heading (focused after navigating), Tab reaches the first period; Enter saves.
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'retention-runs_days');
    await page.keyboard.type('45');
    await page.keyboard.press('Enter');
    await page.getByText('Retention saved.').waitFor();
    const saved = await apiGet(t, org, '/retention');
    assert.deepEqual([saved.overrides, saved.retention.runs_days], [{ runs_days: 45, deliveries_days: null, closed_cases_days: null, audit_days: null }, 45]);
    assert.equal(await inForce('runs_days'), `In force: 45 days, this organization’s own (deployment default: ${defaults.runs_days} days).`);
    assert.equal(await badge('Finished runs'), 'Organization setting');

    // A value the service refuses is shown at its field, which gets the focus back; nothing is stored.
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Use the default for finished runs');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'retention-deliveries_days');
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    const deliveries = page.getByLabel('Keep ended deliveries for (days)');
    await deliveries.and(page.locator('[aria-invalid="true"]')).waitFor();
    const refused = await fromDashboard(t, await givenOwner(t, org.id), 'PUT', '/api/admin/v1/retention', { runs_days: 45, deliveries_days: 0 });
    assert.equal(refused.status, 422, refused.text);
    const expected = refused.body.validation_errors.find((e: { path: string }) => e.path === '/deliveries_days');
    assert.ok(expected, refused.text);
    assert.equal(await page.locator('#retention-deliveries_days-error').textContent(), expected.error);
    assert.match((await deliveries.getAttribute('aria-describedby')) ?? '', /\bretention-deliveries_days-error\b/);
    assert.equal((await focused(page)).id, 'retention-deliveries_days');
    assert.equal(await page.locator('.field-error').count(), 1);
    await checkAtEachWidth(page, 'retention-error');
    assert.deepEqual((await apiGet(t, org, '/retention')).overrides, saved.overrides);

    // Something that is not a number is caught before it is sent.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('ten');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Enter a whole number of days' }).waitFor();

    // Emptied, and "Use the default" for the runs: both follow the deployment default again.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    assert.equal((await focused(page)).id, 'retention-runs_days');
    assert.equal(await page.getByLabel('Keep finished runs for (days)').inputValue(), '');
    await page.keyboard.press('Enter');
    await page.getByText('Retention saved.').waitFor();
    const cleared = await apiGet(t, org, '/retention');
    assert.deepEqual([cleared.overrides, cleared.retention], [{ runs_days: null, deliveries_days: null, closed_cases_days: null, audit_days: null }, defaults]);
    assert.equal(await inForce('runs_days'), `In force: ${defaults.runs_days} days, the deployment default.`);
    assert.equal(await badge('Finished runs'), 'Deployment default');
    assert.equal(await page.locator('.field-error').count(), 0);
    assertNoPageProblems(page);
    await context.close();
  });

  it('signs out with a message when the admin token stops working', async () => {
    const org = await createOrganization(t);
    const second = await createToken(t, org, 'admin');
    const context = await newContext(browser, baseUrl);
    const page = await openPage(context);
    expectHttpError(page, REFUSED_TOKEN);
    await signIn(page, second.secret);
    // The Workflows page's own request is answered first: one sent after the token is gone would
    // sign the page out before the click below, which then waits for a menu that left. (Not
    // 'networkidle': a page load's event, reached on the sign-in page before the click.)
    await page.getByText('No workflows yet').waitFor();
    const deleted = await t.request('DELETE', `/api/admin/v1/tokens/${second.id}`, { token: org.adminToken });
    assert.equal(deleted.status, 204);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).click();
    await heading(page, 'Sign in to the admin dashboard').waitFor();
    await page.getByText('You were signed out: the admin token was not accepted').waitFor();
    assert.equal(await sessionStorageLength(page), 0);
    await page.getByLabel('Admin token').fill(org.adminToken);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading(page, 'Tokens').waitFor();
    assertNoPageProblems(page);
    await context.close();
  });
});
