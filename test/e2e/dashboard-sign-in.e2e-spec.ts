/**
 * People in the dashboard, in headless Chromium (people.md section 2): signing in by email link
 * (the mail read from a local SMTP sink), who is signed in, signing out; each role sees only what
 * it may do (an editor no Publish button, a viewer nothing that changes anything); the owner's
 * Users page invites and changes roles; single sign-on starts at /auth/sso with the typed
 * address; the admin token still signs in behind "Advanced".
 * axe-core finds no serious or critical violation on the sign-in and Users pages.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertNoPageProblems, axeViolations, expectHttpError, newContext, openPage } from '../support/browser.js';
import { fillDefinition, goToSection, heading, openTokenSignIn, peopleDashboardSuite, sessionPage, signedInAs, signIn, signInByEmail, tableRows } from '../support/browser-dashboard.js';
import { givenMember, givenOwnedOrganization, linkMailedTo, type PeopleOrganization, type Session, uniqueEmail } from '../support/people-helpers.js';
import { sampleDefinition } from '../support/scenario.js';

const SIGN_IN = 'Sign in to the admin dashboard';

async function seriousViolations(page: Page) {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The visible texts of the main navigation's links. */
async function navigation(page: Page): Promise<string[]> {
  // The Settings menu's links too, shown or not.
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { includeHidden: true }).allTextContents();
}

describe('admin dashboard: people sign in, and see what their role may do', () => {
  const suite = peopleDashboardSuite();
  let org: PeopleOrganization;
  let editor: Session;
  let viewer: Session;
  let workflowId: number;

  before(async () => {
    org = await givenOwnedOrganization(suite.t, suite.sink, suite.origin);
    editor = await givenMember(suite.t, suite.sink, org, 'editor', suite.origin);
    viewer = await givenMember(suite.t, suite.sink, org, 'viewer', suite.origin);
    const created = await suite.t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition({ name: 'Orders' }) });
    assert.equal(created.status, 201, created.text);
    workflowId = created.body.workflow.id;
  });

  const givenSessionPage = (session: Session) => sessionPage(suite, session);

  it('signs a person in by email link, shows who is signed in, and signs out', async () => {
    const context = await newContext(suite.browser, suite.baseUrl);
    const page = await openPage(context);
    await page.goto('/dashboard/');
    await heading(page, SIGN_IN).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    // An address no one has gets the very same answer, and no mail.
    const stranger = uniqueEmail('stranger');
    await page.getByLabel('Email address').fill(stranger);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const confirmation = page.getByRole('status').filter({ hasText: 'Check your mail' });
    await confirmation.waitFor();
    assert.match(await confirmation.innerText(), /The link works once, within 15 minutes\./);

    await signInByEmail(page, suite.sink, editor.email);
    await heading(page, 'Workflows').waitFor();
    assert.match(await signedInAs(page).innerText(), new RegExp(`${editor.email.replace(/[.]/g, '\\.')}\\s+editor`, 'i'));
    assert.ok(!suite.sink.mails.some((mail) => mail.to.includes(stranger)), 'no mail to an unknown address');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, SIGN_IN).waitFor();
    await page.getByText('You signed out.').waitFor();
    // The session ended at the service: a reload finds no session behind the cookie.
    await page.reload();
    await heading(page, SIGN_IN).waitFor();
    await openTokenSignIn(page);
    assert.deepEqual(await seriousViolations(page), []);
    assertNoPageProblems(page);
    await context.close();
  });

  it('sends "Sign in with single sign-on" to /auth/sso with the typed address, and asks for one first', async () => {
    const context = await newContext(suite.browser, suite.baseUrl);
    const page = await openPage(context);
    // The service's single sign-on answers there (a redirect to the identity provider): a stand-in here.
    await page.route('**/auth/sso?*', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'identity provider' }));
    await page.goto('/dashboard/');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter your email address.' }).waitFor();
    await page.getByLabel('Email address').fill('lee+ops@acme.example');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL(/\/auth\/sso\?/);
    const url = new URL(page.url());
    assert.deepEqual([url.pathname, url.searchParams.get('email')], ['/auth/sso', 'lee+ops@acme.example']);
    await context.close();
  });

  it('shows an editor no Publish button on a workflow with a draft, and lets them save the draft', async () => {
    const { context, page } = await givenSessionPage(editor);
    assert.deepEqual(await navigation(page), ['Workflows', 'Cases', 'Reports', 'Usage', 'Subscriptions', 'Retention']);
    await page.getByRole('link', { name: 'Orders' }).click();
    await heading(page, 'Orders').waitFor();
    await page.getByRole('tab', { name: 'JSON' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Publish|Unpublish/ }).count(), 0);
    assert.equal(await page.getByRole('tab', { name: 'Case Configuration' }).count(), 0);

    await page.getByRole('tab', { name: 'JSON' }).click();
    await fillDefinition(page, sampleDefinition({ name: 'Orders', statuses: ['Triage', 'Escalated'] }));
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    assert.equal(await page.getByRole('button', { name: /Publish/ }).count(), 0);
    const saved = await suite.t.request('GET', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken });
    assert.ok(JSON.stringify(saved.body.workflow).includes('Escalated'), saved.text);

    // The subscriptions an editor may read, with nothing to create.
    await goToSection(page, 'Subscriptions');
    assert.equal(await page.getByRole('button', { name: 'New subscription' }).count(), 0);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows a viewer cases, reports and usage, and nothing that changes anything', async () => {
    const { context, page } = await givenSessionPage(viewer);
    await heading(page, 'Cases').waitFor();
    assert.match(await signedInAs(page).innerText(), /viewer/i);
    assert.deepEqual(await navigation(page), ['Cases', 'Reports', 'Usage']);
    await goToSection(page, 'Reports');
    assert.equal(await page.getByRole('link', { name: 'Email digests' }).count(), 0);
    await goToSection(page, 'Usage');
    // A page beyond the role names the role it needs, rather than a refusal from the service.
    await page.goto(`/dashboard/workflows/${workflowId}`);
    await heading(page, 'You need the editor role to see this').waitFor();
    assertNoPageProblems(page);
    await context.close();
  });

  it('signs a person out with a message when their session stops working (the user removed)', async () => {
    const leaving = await givenMember(suite.t, suite.sink, org, 'viewer', suite.origin);
    const { context, page } = await givenSessionPage(leaving);
    await heading(page, 'Cases').waitFor();
    expectHttpError(page, { status: 401, url: /\/api\/admin\/v1\// });
    const removed = await suite.t.request('DELETE', `/api/admin/v1/users/${leaving.userId}`, { headers: { cookie: org.owner.cookie, origin: suite.origin } });
    assert.equal(removed.status, 204, removed.text);
    // The next request finds the session gone: the person's click, or the page's own refresh of
    // the cases, whichever comes first (the refresh takes the navigation away from under the click).
    const usage = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' });
    await Promise.any([usage.click(), heading(page, SIGN_IN).waitFor()]);
    await heading(page, SIGN_IN).waitFor();
    await page.getByText('You were signed out: your session ended').waitFor();
    assertNoPageProblems(page);
    await context.close();
  });

  it('keeps a person signed in when the service answers "who is signed in" only after failing, and says so when it never answers', async () => {
    const { context, page } = await givenSessionPage(viewer);
    expectHttpError(page, { status: 503, url: /\/api\/admin\/v1\/me$/ });
    let failures = 2; // a service restarting: two failed answers, then the real one
    await page.route('**/api/admin/v1/me', (route) => (failures-- > 0 ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"service unavailable"}' }) : route.continue()));
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(failures, -1, 'asked three times');
    await page.unroute('**/api/admin/v1/me');

    await page.route('**/api/admin/v1/me', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"service unavailable"}' }));
    await page.reload();
    await heading(page, SIGN_IN).waitFor({ timeout: 15_000 });
    await page.getByText('The service could not be reached to check whether you are signed in.').waitFor();
    assertNoPageProblems(page);
    await context.close();
  });

  it('lets the owner invite a user, change a role, keep the last owner, and remove a user on the Users page', async () => {
    const { context, page } = await givenSessionPage(org.owner);
    await goToSection(page, 'Users');
    assert.deepEqual((await tableRows(page, 'Users')).map((row) => row.slice(0, 3)), [
      [org.owner.email, 'Owner', 'Active'],
      [editor.email, 'Editor', 'Active'],
      [viewer.email, 'Viewer', 'Active'],
    ]);

    const invited = uniqueEmail('invited');
    const invite = page.getByRole('region', { name: 'Invite a user' });
    await invite.getByLabel('Email address').fill(invited);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(`Invited ${invited}`).waitFor();
    await linkMailedTo(suite.sink, invited);
    assert.deepEqual((await tableRows(page, 'Users')).at(-1)!.slice(0, 4), [invited, 'Viewer', 'Invited', 'Never']);
    assert.deepEqual(await seriousViolations(page), []);

    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: `Change role of ${invited}` }).click();
    await dialog.getByLabel('Role').selectOption('editor');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual((await tableRows(page, 'Users')).at(-1)!.slice(0, 2), [invited, 'Editor']);
    const changed = await suite.t.request('GET', '/api/admin/v1/users', { headers: { cookie: org.owner.cookie } });
    assert.equal(changed.body.users.find((u: { email: string }) => u.email === invited).role, 'editor');

    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/users\/[0-9]+$/ });
    await page.getByRole('button', { name: `Change role of ${org.owner.email}` }).click();
    await dialog.getByLabel('Role').selectOption('admin');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'last owner' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await tableRows(page, 'Users'))[0]![1], 'Owner');

    await page.getByRole('button', { name: `Remove ${invited}` }).click();
    await dialog.getByRole('button', { name: 'Remove user' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.ok(!(await tableRows(page, 'Users')).some((row) => row[0] === invited));
    assertNoPageProblems(page);
    await context.close();
  });

  it('still signs in with an admin token behind "Advanced", which has the admin role', async () => {
    const context = await newContext(suite.browser, suite.baseUrl);
    const page = await openPage(context);
    await signIn(page, org.adminToken);
    assert.equal(await signedInAs(page).innerText(), 'Admin token');
    assert.deepEqual(await navigation(page), ['Workflows', 'Cases', 'Reports', 'Usage', 'Subscriptions', 'Tokens', 'Retention', 'Audit']);
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, SIGN_IN).waitFor();
    assertNoPageProblems(page);
    await context.close();
  });
});
