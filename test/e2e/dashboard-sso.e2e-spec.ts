/**
 * Single sign-on in the dashboard, in headless Chromium, against a real OpenID provider
 * (oidc-provider) started here (people.md section 2): the owner sets the provider up on the
 * Single sign-on page, keyboard only, and verifies its domain with a TXT record (served by a DNS
 * server started here); a person of that domain types their address on the
 * sign-in page, chooses single sign-on, signs in at the provider and lands on the dashboard as a
 * new user with the default role (editor here), who then sees no Publish button. axe-core finds
 * no serious or critical violation on the Single sign-on page.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertNoPageProblems, axeViolations, expectHttpError, focused, newContext, openPage } from '../support/browser.js';
import { givenSignedInOwner, goToSection, heading, peopleDashboardSuite, signedInAs } from '../support/browser-dashboard.js';
import { type DnsTestServer, startDnsTestServer } from '../support/dns-test-server.js';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from '../support/oidc-test-provider.js';
import { sampleDefinition } from '../support/scenario.js';
import { db } from '../support/test-app.js';

describe('admin dashboard: single sign-on', () => {
  let dns: DnsTestServer;
  const env: Record<string, string> = {};
  // Registered before the suite's own `before`, which reads `env` when it starts the service.
  before(async () => {
    dns = await startDnsTestServer();
    env.DNS_SERVERS = dns.server;
  });
  after(() => dns?.close());
  const suite = peopleDashboardSuite(env);
  let idp: TestProvider;
  const domain = `acme-${randomBytes(3).toString('hex')}.test`;

  before(async () => {
    idp = await startTestProvider(`${suite.origin}/auth/sso/callback`);
  });
  after(() => idp?.close());

  it('the owner sets up the provider; a person of its domain signs in there and lands as an editor, with no Publish button', async () => {
    const { org, context, page } = await givenSignedInOwner(suite.t, suite.browser, suite.baseUrl);
    const created = await suite.t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition({ name: 'Orders' }) });
    assert.equal(created.status, 201, created.text);

    expectHttpError(page, { status: 404, url: /\/api\/admin\/v1\/sso$/ }); // not set up yet
    await goToSection(page, 'Single sign-on');
    await heading(page, 'Single sign-on').waitFor();
    await page.getByText('Not set up: people sign in by email link.').waitFor();
    assert.equal(await page.getByLabel('Redirect URI to register at the provider').inputValue(), `${suite.origin}/auth/sso/callback`);
    assert.equal(await page.getByLabel('Sign-in address for your people').inputValue(), `${suite.origin}/auth/sso?organization=${org.id}`);
    assert.deepEqual((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], 'the Single sign-on page');

    // A refused setting is shown at its field, which gets the keyboard; then corrected and saved, keyboard only.
    expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/sso$/ });
    await page.getByLabel('Issuer').focus();
    await page.keyboard.type('not a url');
    await page.keyboard.press('Tab');
    await page.keyboard.type(CLIENT_ID);
    await page.keyboard.press('Tab');
    await page.keyboard.type(CLIENT_SECRET);
    await page.keyboard.press('Tab');
    await page.keyboard.type(domain);
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown'); // viewer → agent
    await page.keyboard.press('ArrowDown'); // agent → editor
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'sso-required');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const issuer = page.getByLabel('Issuer');
    await issuer.and(page.locator('[aria-invalid="true"]')).waitFor();
    assert.equal((await focused(page)).id, 'sso-issuer', 'the keyboard is at the refused field');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(idp.issuer);
    await page.keyboard.press('Enter');
    await page.getByText('Single sign-on saved.').or(page.getByRole('alert')).first().waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, (await page.getByRole('alert').allTextContents()).join(' / '));
    const stored = await suite.t.request('GET', '/api/admin/v1/sso', { headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } });
    assert.equal(stored.status, 200, stored.text);
    assert.deepEqual([stored.body.sso.issuer, stored.body.sso.email_domains, stored.body.sso.default_role, stored.body.sso.required], [idp.issuer, [domain], 'editor', false]);
    assert.ok(!(await page.content()).includes(CLIENT_SECRET), 'the secret is not on the page once saved');

    // The domain is not verified yet; the owner publishes the TXT record the page shows, and checks.
    const domainRow = page.getByRole('region', { name: 'Email domains' }).getByRole('row', { name: new RegExp(domain.replace(/[.]/g, '\\.')) });
    await domainRow.getByText('Not verified').waitFor();
    const recordName = (await domainRow.locator('code').textContent())!;
    assert.equal(recordName, `_case-intake.${domain}`);
    dns.txt.set(recordName, [[await page.getByLabel('TXT record value').inputValue()]]);
    await page.getByRole('button', { name: 'Check DNS records' }).click();
    await page.getByText('Verified 1 domain.').waitFor();
    await domainRow.getByText('Verified', { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Check DNS records' }).count(), 0, 'nothing left to check');
    assert.deepEqual((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], 'the page with its domains');
    assertNoPageProblems(page);
    await context.close();

    // A person the provider knows, with a verified address of the listed domain and no user yet.
    const email = `dana-${randomBytes(3).toString('hex')}@${domain}`;
    const account = `account-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(account, { email, email_verified: true });
    idp.signInAs = account;
    const personContext = await newContext(suite.browser, suite.baseUrl);
    const person = await openPage(personContext);
    expectHttpError(person, { status: 401, url: /\/api\/admin\/v1\/me$/ });
    await person.goto('/dashboard/');
    await person.getByLabel('Email address').fill(email);
    await person.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    // The service's own page names the organization and the provider; only its button goes on.
    await person.waitForURL(/\/auth\/sso\?email=/);
    const [{ name: orgName }] = (await db().query('SELECT name FROM organizations WHERE id = $1', [org.id])).rows as { name: string }[];
    await person.getByText(`${orgName!} signs its people in`).waitFor();
    await person.getByRole('button', { name: `Continue to ${new URL(idp.issuer).host}` }).click();
    await person.waitForURL(/\/dashboard\//);
    await person.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.match((await signedInAs(person).textContent()) ?? '', new RegExp(`${email.replace(/[.]/g, '\\.')}\\s*editor`));

    await person.getByRole('link', { name: 'Orders' }).click();
    await heading(person, 'Orders').waitFor();
    await person.getByRole('tab', { name: 'JSON' }).waitFor();
    assert.equal(await person.getByRole('button', { name: /Publish/ }).count(), 0, 'an editor sees no Publish button');
    assertNoPageProblems(person);
    await personContext.close();
  });
});
