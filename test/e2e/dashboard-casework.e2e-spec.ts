/**
 * Working cases in the dashboard, in headless Chromium (casework.md section 7): an agent signs
 * in and lands on My cases; on a case page they assign it, note, reply to the requester (the
 * recipients shown before sending), move it to a declared status, and merge it, with the
 * keyboard alone and with the mouse; changes made elsewhere show on an open case page within
 * 5 s without a reload; on the case list they search (each row with its match), filter, save a
 * view (with its count), change a selection in bulk (a progress bar) and export. axe-core finds
 * no serious or critical violation on any of these pages.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SmtpListener } from '../../src/modules/email/infrastructure/smtp-listener.js';
import { eventually } from '../support/automation-helpers.js';
import { assertNoPageProblems, axeViolations, focused, newContext, openPage, tabUntil } from '../support/browser.js';
import { goToSection, heading, openSignedInDashboard, peopleDashboardSuite, sessionPage, signInByEmail } from '../support/browser-dashboard.js';
import { type CasesFixture, statusDefinition } from '../support/cases-api.js';
import { caseIdsOf, emailDefinition, mail } from '../support/email-helpers.js';
import { givenMember, givenOwnedOrganization, type PeopleOrganization, type Session } from '../support/people-helpers.js';
import { createToken, createWorkflow } from '../support/scenario.js';
import { deliver } from '../support/smtp-client.js';

const STATUSES = ['Triage', 'Waiting on customer'];
const REQUESTER = 'ada@customer.example';
const COLLEAGUE = 'grace@customer.example';

async function seriousViolations(page: Page) {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The visible texts of the main navigation's links. */
async function navigation(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { includeHidden: true }).allTextContents();
}

/** Presses Tab until the element with `id` has the focus. */
async function tabTo(page: Page, id: string): Promise<void> {
  await tabUntil(page, (focus) => focus.id === id, `#${id}`);
}

/** Presses Tab until a button or link named `text` has the focus. */
async function tabToNamed(page: Page, text: string): Promise<void> {
  await tabUntil(page, (focus) => focus.text === text, `“${text}”`);
}

/** Chooses an option of a focused closed <select> with arrow keys alone, as a keyboard user does. */
async function arrowToOption(page: Page, label: string): Promise<void> {
  const options = await page.evaluate<string[]>('[...document.activeElement.options].map((o) => o.textContent)');
  const from = await page.evaluate<number>('document.activeElement.selectedIndex');
  const to = options.indexOf(label);
  assert.ok(to >= 0, `no option “${label}” in ${JSON.stringify(options)}`);
  for (let i = from; i !== to; i += Math.sign(to - from)) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  assert.equal(await page.evaluate<number>('document.activeElement.selectedIndex'), to);
}

describe('admin dashboard: an agent works cases', () => {
  const suite = peopleDashboardSuite({ INBOUND_EMAIL_DOMAIN: 'inbound.example' });
  let org: PeopleOrganization;
  let agent: Session;
  let smtpPort: number;
  let inbox: { workflowId: number; address: string };
  let direct: CasesFixture;
  let colleague: Session;

  before(async () => {
    smtpPort = await suite.t.app.get(SmtpListener).listen(0);
    org = await givenOwnedOrganization(suite.t, suite.sink, suite.origin);
    agent = await givenMember(suite.t, suite.sink, org, 'agent', suite.origin);
    const token = await createToken(suite.t, org, 'api');
    const inboxId = await createWorkflow(suite.t, org, emailDefinition({ statuses: STATUSES }));
    const generated = await suite.t.request('POST', `/api/admin/v1/workflows/${inboxId}/email_address`, { token: org.adminToken });
    assert.equal(generated.status, 201, generated.text);
    inbox = { workflowId: inboxId, address: generated.body.email_address.address };
    const directId = await createWorkflow(suite.t, org, statusDefinition({ statuses: STATUSES }));
    direct = { t: suite.t, org, apiToken: token.secret, apiTokenId: token.id, workflowId: directId, casesPath: `/api/external/v1/workflows/${directId}/cases` };
    colleague = await givenMember(suite.t, suite.sink, org, 'agent', suite.origin);
    const team = await suite.t.request('POST', '/api/admin/v1/teams', { token: org.adminToken, body: { name: 'Support', member_ids: [agent.userId, colleague.userId] } });
    assert.equal(team.status, 201, team.text);
  });

  /** A case that came by email from the requester, with a colleague in Cc. */
  async function emailCase(subject: string): Promise<number> {
    const before = new Set(await caseIdsOf(inbox.workflowId));
    const message = mail({ From: `Ada <${REQUESTER}>`, To: inbox.address, Cc: COLLEAGUE, Subject: subject, 'Message-ID': `<${subject.replace(/\W+/g, '-')}-${Date.now()}@customer.example>` }, 'My order never arrived.');
    const result = await deliver({ port: smtpPort, to: [inbox.address], message });
    assert.equal(result.data?.code, 250, JSON.stringify(result));
    return eventually('the email case', async () => (await caseIdsOf(inbox.workflowId)).find((id) => !before.has(id)));
  }

  async function directCase(subject: string, casesPath = direct.casesPath): Promise<number> {
    const created = await suite.t.request('POST', casesPath, { token: direct.apiToken, body: { subject, attributes: {} } });
    assert.equal(created.status, 201, created.text);
    return created.body.case.id;
  }

  const asAdmin = (method: string, url: string, body?: unknown) => suite.t.request(method, url, { token: org.adminToken, body });
  const adminCase = async (id: number) => (await asAdmin('GET', `/api/admin/v1/cases/${id}`)).body.case;

  it('lands an agent on My cases when they sign in, without serious axe violations', async () => {
    const context = await newContext(suite.browser, suite.baseUrl);
    const page = await openPage(context);
    await signInByEmail(page, suite.sink, agent.email);
    await heading(page, 'My cases').waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard/cases/mine');
    // In the Cases section, beside all cases.
    assert.deepEqual(await navigation(page), ['Cases', 'Reports', 'Usage']);
    const lists = page.getByRole('navigation', { name: 'Case lists' });
    assert.deepEqual(await lists.getByRole('link').allTextContents(), ['My cases', 'All cases']);
    assert.equal(await lists.getByRole('link', { name: 'My cases' }).getAttribute('aria-current'), 'page');
    await page.locator('.loading').waitFor({ state: 'detached' });
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('lists on My cases the cases assigned to the agent, latest activity first', async () => {
    const older = await directCase('Assigned first');
    const newer = await directCase('Assigned second');
    const elsewhere = await directCase('Not mine');
    for (const id of [older, newer]) assert.equal((await asAdmin('PATCH', `/api/admin/v1/cases/${id}`, { assignee_id: agent.userId })).status, 200);
    // Activity on the older one makes it the latest.
    assert.equal((await asAdmin('PATCH', `/api/admin/v1/cases/${older}`, { priority: 'high' })).status, 200);
    const { context, page } = await sessionPage(suite, agent);
    await heading(page, 'My cases').waitFor();
    const links = page.getByRole('region', { name: 'Cases' }).locator('tbody th a');
    await links.first().waitFor();
    const shown = await links.allTextContents();
    assert.ok(shown.indexOf(`#${older}`) < shown.indexOf(`#${newer}`) && shown.indexOf(`#${newer}`) >= 0, shown.join());
    assert.ok(!shown.includes(`#${elsewhere}`));
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('moves a case to a declared status, assigns it and sets its priority with the keyboard alone (never to Error)', async () => {
    const id = await directCase('Keyboard move');
    const { context, page } = await sessionPage(suite, agent);
    await page.goto(`/dashboard/cases/${id}`);
    await heading(page, `Case #${id}`).waitFor();
    await page.getByRole('heading', { name: 'Work on this case' }).waitFor();
    const statuses = await page.locator('#work-status option').allTextContents();
    assert.deepEqual(statuses, ['Open', 'Closed', ...STATUSES]);
    // An agent may not list users: the team's members are named by the teams list, never as "User #id".
    await page.locator('#work-assignee option', { hasText: colleague.email }).waitFor({ state: 'attached' });
    const assignees = await page.locator('#work-assignee option').allTextContents();
    assert.deepEqual(assignees, ['Nobody', ...[agent.email, colleague.email].sort((a, b) => a.localeCompare(b))]);

    await tabTo(page, 'work-assignee');
    await arrowToOption(page, agent.email);
    await tabTo(page, 'work-priority');
    await arrowToOption(page, 'Urgent');
    await tabTo(page, 'work-status');
    await arrowToOption(page, 'Triage');
    await tabToNamed(page, 'Save changes');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: `Case moved to Triage, assigned to ${agent.email}, priority urgent.` }).waitFor();

    const after = await adminCase(id);
    assert.deepEqual([after.status, after.assignee?.id, after.priority], ['Triage', agent.userId, 'urgent']);
    // The move's timeline row shows without a reload.
    await page.locator('.timeline__summary', { hasText: 'Open → Triage' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('notes and replies with the keyboard alone: a public reply shows its recipients before it is sent, and is mailed to them only', async () => {
    const id = await emailCase('Where is my parcel');
    const { context, page } = await sessionPage(suite, agent);
    await page.goto(`/dashboard/cases/${id}`);
    await page.getByRole('heading', { name: 'Add a comment' }).waitFor();

    await tabTo(page, 'composer-body');
    assert.equal((await focused(page)).tag, 'textarea');
    await page.keyboard.type('Checked the carrier: lost in transit.');
    await tabToNamed(page, 'Add note');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Internal note added.' }).waitFor();

    // Back to the visibility radios (before the text box) and on to "Public reply" with an arrow key.
    await tabUntil(page, (focus) => focus.tag === 'input' && focus.text === '', 'the visibility radios', 'Shift+Tab');
    await page.keyboard.press('ArrowRight');
    await page.getByText(`Mailed to: ${REQUESTER}, ${COLLEAGUE}`).waitFor();
    await tabTo(page, 'composer-body');
    await page.keyboard.type('We are sending a new one today.');
    await tabToNamed(page, 'Send reply');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: /Reply sent to/ }).waitFor();

    const comments = page.getByRole('region', { name: /Comments/ }).getByRole('article');
    await comments.nth(1).waitFor();
    assert.deepEqual(await comments.locator('.badge').allTextContents(), ['Internal note', 'Public reply']);
    const reply = await eventually('the reply mailed to the requester', async () => suite.sink.mails.find((m) => m.to.includes(REQUESTER) && (m.parsed.text ?? '').includes('We are sending a new one today.')));
    assert.ok(reply.to.includes(COLLEAGUE), `cc'd as the first message was: ${reply.to.join()}`);
    assert.ok(!suite.sink.mails.some((m) => (m.parsed.text ?? '').includes('lost in transit')), 'an internal note is never mailed');
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows changes made elsewhere on an open case page within 5 s, without a reload', async () => {
    const id = await directCase('Watched live');
    const { context, page } = await sessionPage(suite, agent);
    await page.goto(`/dashboard/cases/${id}`);
    await page.getByRole('heading', { name: 'Work on this case' }).waitFor();
    await page.evaluate('window.__sameDocument = true');

    assert.equal((await asAdmin('PATCH', `/api/admin/v1/cases/${id}`, { status: 'Waiting on customer', priority: 'high' })).status, 200);
    const noted = await suite.t.request('POST', `/api/admin/v1/cases/${id}/comments`, { headers: { cookie: org.owner.cookie, origin: suite.origin }, body: { body: 'Customer called back.', visibility: 'internal' } });
    assert.equal(noted.status, 201, noted.text);
    const started = Date.now();
    // A locator waits in the page's own script, which the CSP allows (a string waitForFunction polls with eval, which it refuses).
    await page.locator('#work-status option:checked', { hasText: 'Waiting on customer' }).waitFor({ state: 'attached', timeout: 5_000 });
    await page.getByText('Customer called back.').waitFor({ timeout: Math.max(5_000 - (Date.now() - started), 1) });
    await page.locator('.timeline__summary', { hasText: 'Open → Waiting on customer' }).waitFor({ timeout: 5_000 });
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'the page was not reloaded');
    assertNoPageProblems(page);
    await context.close();
  });

  it('merges a case into another of its workflow and links two cases, with the mouse', async () => {
    const target = await directCase('Merge target');
    const merged = await directCase('Merged away');
    const related = await directCase('Related');
    const { context, page } = await sessionPage(suite, agent);
    await page.goto(`/dashboard/cases/${merged}`);
    const links = page.getByRole('region', { name: 'Links' });
    await links.getByLabel('Case number').fill(String(related));
    await links.getByRole('button', { name: 'Add link' }).click();
    await links.getByRole('link', { name: `case #${related}` }).waitFor();

    await links.getByRole('button', { name: 'Merge…' }).click();
    const dialog = page.getByRole('dialog', { name: `Merge case #${merged} into another case` });
    await dialog.getByLabel('Merge into').selectOption(String(target));
    assert.deepEqual(await seriousViolations(page), []);
    await dialog.getByRole('button', { name: 'Merge' }).click();
    await heading(page, `Case #${target}`).waitFor();
    const after = await adminCase(merged);
    assert.deepEqual([after.status, after.outcome], ['Closed', 'Merged']);
    assertNoPageProblems(page);
    await context.close();
  });

  it('searches the case list with the keyboard: each row shows where it matched, the word marked, and no sort is offered meanwhile', async () => {
    const word = `parcel${Date.now().toString(36)}`;
    const id = await directCase(`Lost ${word} in Lyon`);
    // The index is written behind the intake: wait until the service finds the case.
    await eventually('the case indexed', async () => (await asAdmin('GET', `/api/admin/v1/cases?q=${word}`)).body.cases?.some((c: { id: number }) => c.id === id) || undefined);
    const { context, page } = await sessionPage(suite, agent);
    await page.goto('/dashboard/cases?sort=-priority');
    await heading(page, 'Cases').waitFor();
    await page.locator('#filter-sort').waitFor();
    await tabTo(page, 'filter-q');
    await page.keyboard.type(word);
    assert.equal(await page.locator('#filter-sort').count(), 0, 'no sort while searching');
    await page.keyboard.press('Enter');
    const row = page.getByRole('region', { name: 'Cases' }).locator('tbody tr', { has: page.getByRole('link', { name: `#${id}`, exact: true }) });
    await row.locator('.match-snippet mark').waitFor();
    assert.equal(await row.locator('.match-snippet mark').innerText(), word);
    assert.match(await row.locator('.match-snippet').innerText(), /^Subject:/);
    const address = new URL(page.url());
    assert.equal(address.searchParams.get('q'), word);
    assert.equal(address.searchParams.get('sort'), null, 'the sort is dropped: the list refuses it with q');
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('filters the case list, saves a view with its count, changes the selection in bulk with a progress bar, and exports what the filters match', async () => {
    // A workflow of its own: the view's count and the export hold these cases only.
    const workflowId = await createWorkflow(suite.t, org, statusDefinition({ name: 'Bulk', statuses: STATUSES }));
    const casesPath = `/api/external/v1/workflows/${workflowId}/cases`;
    const ids = [await directCase('Bulk one', casesPath), await directCase('Bulk two', casesPath)];
    const { context, page } = await sessionPage(suite, agent);
    await page.goto(`/dashboard/cases?workflow_id=${workflowId}&priority=normal&sort=-updated_at`);
    await heading(page, 'Cases').waitFor();
    const table = page.getByRole('region', { name: 'Cases' });
    for (const id of ids) await table.getByRole('checkbox', { name: `Select case #${id}` }).check();

    const bulk = page.getByRole('form', { name: /Change the selected cases/ });
    await bulk.getByLabel('Change').selectOption('status');
    await bulk.getByLabel('To').selectOption('Triage');
    await bulk.getByRole('button', { name: 'Apply to 2 cases' }).click();
    await bulk.getByRole('progressbar', { name: 'Bulk change progress' }).waitFor();
    await bulk.getByRole('status').filter({ hasText: 'Done: 2 changed, 0 could not change.' }).waitFor();
    for (const id of ids) assert.equal((await adminCase(id)).status, 'Triage');

    await page.goto(`/dashboard/cases?workflow_id=${workflowId}&status=Triage`);
    await page.getByLabel('New view from these filters').fill('Triage in billing');
    await page.getByRole('button', { name: 'Save view' }).click();
    const views = page.getByRole('navigation', { name: 'Saved views' });
    const view = views.getByRole('link', { name: /Triage in billing/ });
    await view.waitFor();
    assert.match(await view.innerText(), /Triage in billing\s+2/);
    assert.equal(await view.getAttribute('aria-current'), 'page');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    assert.equal(lines.length, 3, csv);
    for (const id of ids) assert.ok(lines.some((line) => line.startsWith(`${id},`) || line.includes(`,${id},`)), csv);
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('has no serious or critical axe violation on My cases, the case list and the case page', async () => {
    const id = await emailCase('Axe me');
    const context = await newContext(suite.browser, suite.baseUrl);
    const [name, value] = agent.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: suite.baseUrl }]);
    const page = await openPage(context);
    await openSignedInDashboard(page);
    await heading(page, 'My cases').waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
    assert.deepEqual(await seriousViolations(page), [], 'My cases');
    await goToSection(page, 'Cases');
    await page.getByRole('region', { name: 'Cases' }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'the case list');
    await page.getByRole('link', { name: `#${id}`, exact: true }).click();
    await heading(page, `Case #${id}`).waitFor();
    await page.getByRole('heading', { name: 'Email thread' }).waitFor();
    await page.locator('.loading').first().waitFor({ state: 'detached' });
    assert.deepEqual(await seriousViolations(page), [], 'the case page');
    assertNoPageProblems(page);
    await context.close();
  });
});
