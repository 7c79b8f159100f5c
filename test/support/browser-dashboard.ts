import assert from 'node:assert/strict';
import { type AddressInfo, createServer } from 'node:net';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, newContext, openPage } from './browser.js';
import { givenOwner, linkMailedTo } from './people-helpers.js';
import { createOrganization, type Organization } from './scenario.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';
import { closeDb, startTestApp, type TestApp } from './test-app.js';

/** The test app also listening on a real loopback port (`port`, or any free one), for the browser. */
export async function listenOnLoopback(t: TestApp, port = 0): Promise<string> {
  await t.app.listen({ port, host: '127.0.0.1' });
  const { port: bound } = t.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${bound}`;
}

/** A loopback port free a moment ago (for an app that must know its own address before it starts). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface DashboardSuite {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
}

/** For a describe block: the test app (started with `options`) on loopback and a Chromium, there for its tests and closed after them. */
export function dashboardSuite(options?: Parameters<typeof startTestApp>[0]): DashboardSuite {
  const suite = {} as DashboardSuite;
  before(async () => {
    suite.t = await startTestApp(options);
    suite.baseUrl = await listenOnLoopback(suite.t);
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.t?.close();
    await closeDb();
  });
  return suite;
}

export interface PeopleDashboardSuite extends DashboardSuite {
  sink: SmtpSink;
  /** The service's own origin (PUBLIC_BASE_URL), which the browser's is too. */
  origin: string;
}

/**
 * For a describe block where people sign in: the test app sends mail to an SMTP sink, and is
 * served at the very address it believes is its own (PUBLIC_BASE_URL), since the sign-in link
 * page and a session's changes are accepted only from the service's own origin.
 */
export function peopleDashboardSuite(env: Record<string, string> = {}): PeopleDashboardSuite {
  const suite = {} as PeopleDashboardSuite;
  before(async () => {
    suite.sink = await startSmtpSink();
    const port = await freeLoopbackPort();
    suite.origin = `http://127.0.0.1:${port}`;
    suite.t = await startTestApp({ env: { SMTP_RELAY_URL: suite.sink.url, PUBLIC_BASE_URL: suite.origin, ...env } });
    suite.baseUrl = await listenOnLoopback(suite.t, port);
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.t?.close();
    await suite.sink?.close();
    await closeDb();
  });
  return suite;
}

/** The header's account part: who is signed in. */
export function signedInAs(page: Page): Locator {
  return page.getByRole('banner').locator('.account__who');
}

/** Opens the dashboard in a browser that holds a session cookie (however it got there) and waits for the signed-in header. */
export async function openSignedInDashboard(page: Page): Promise<void> {
  await page.goto('/dashboard/');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** A fresh browser profile holding `session`'s cookie, on the dashboard. */
export async function sessionPage(suite: DashboardSuite, session: { cookie: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(suite.browser, suite.baseUrl);
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: suite.baseUrl }]);
  const page = await openPage(context);
  await openSignedInDashboard(page);
  return { context, page };
}

/**
 * Signs `email` in as a person does: asks for a link on the sign-in page, opens the link from
 * the mail the sink caught, presses the link page's button, and waits for the dashboard.
 */
export async function signInByEmail(page: Page, sink: SmtpSink, email: string): Promise<void> {
  const earlier = new Set(sink.mails.filter((mail) => mail.to.includes(email)).map((mail) => /\/auth\/link\/sil_[A-Za-z0-9_-]+/.exec(mail.parsed.text ?? '')?.[0] ?? ''));
  await page.goto('/dashboard/');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('Check your mail').waitFor();
  await page.goto(await linkMailedTo(sink, email, earlier));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\//);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

export interface SignedIn {
  org: Organization;
  context: BrowserContext;
  page: Page;
}

export function heading(page: Page, name: string | RegExp) {
  return page.getByRole('heading', { level: 1, name });
}

/** Opens the sign-in page's "Advanced" part, the admin token form, unless it is open. */
export async function openTokenSignIn(page: Page): Promise<void> {
  const advanced = page.locator('details', { hasText: 'Advanced: sign in with an admin token' });
  if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
}

/** Signs in through the admin token form and waits for the first page (the workflows). */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.goto('/dashboard/');
  await openTokenSignIn(page);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await heading(page, 'Workflows').waitFor();
}

/** A fresh browser profile signed in with the admin token of `org` (a new organization by default). */
export async function givenSignedIn(t: TestApp, browser: Browser, baseUrl: string, existing?: Organization): Promise<SignedIn> {
  const org = existing ?? (await createOrganization(t));
  const context = await newContext(browser, baseUrl);
  const page = await openPage(context);
  await signIn(page, org.adminToken);
  return { org, context, page };
}

/**
 * A fresh browser profile where the owner of a new organization is signed in (their session
 * cookie set, as the sign-in link page sets it). The app must be served at its PUBLIC_BASE_URL.
 */
export async function givenSignedInOwner(t: TestApp, browser: Browser, baseUrl: string): Promise<SignedIn> {
  const org = await createOrganization(t);
  const owner = await givenOwner(t, org.id);
  const context = await newContext(browser, baseUrl);
  const [name, value] = owner.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  const page = await openPage(context);
  await openSignedInDashboard(page);
  return { org, context, page };
}

/** Clicks a link of the main navigation (opening the menu first on a narrow screen). */
export async function goToSection(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The organization's settings sit in the Settings menu.
  if ((await nav.getByRole('link', { name }).count()) === 0) await nav.getByRole('button', { name: 'Settings' }).click();
  await nav.getByRole('link', { name }).click();
  await heading(page, name).waitFor();
}

/** Types a definition into the editor of the page (new workflow, or the JSON tab). */
export async function fillDefinition(page: Page, definition: unknown): Promise<void> {
  // A new workflow opens on its Builder tab.
  const json = page.getByRole('tab', { name: 'JSON' });
  if ((await json.count()) > 0 && (await json.getAttribute('aria-selected')) !== 'true') await json.click();
  await page.getByLabel('Definition (JSON)').fill(JSON.stringify(definition, null, 2));
}

/** The workflow id from a workflow page's address (its last segment). */
export function workflowIdFromUrl(page: Page): number {
  const match = /\/dashboard\/workflows\/([0-9]+)$/.exec(new URL(page.url()).pathname);
  assert.ok(match, `not a workflow page: ${page.url()}`);
  return Number(match[1]);
}

/** The texts of a table's body rows, cell by cell (header cell of the row included). */
export async function tableRows(page: Page, tableName: string): Promise<string[][]> {
  const rows = page.getByRole('region', { name: tableName }).locator('tbody tr');
  await rows.first().waitFor();
  return rows.evaluateAll((trs) => trs.map((tr) => Array.from((tr as { children: ArrayLike<{ textContent: string | null }> }).children, (cell) => (cell.textContent ?? '').trim())));
}

/** The rows of a table as records by their column headings' texts: a test names the columns it reads, whatever others a role adds. */
export async function tableRecords(page: Page, tableName: string): Promise<Record<string, string>[]> {
  // The casework columns appear once the cases are read: the headings and the rows are read again until they agree.
  for (let attempt = 1; ; attempt++) {
    const headings = (await page.getByRole('region', { name: tableName }).locator('thead th').allTextContents()).map((text) => text.trim());
    const rows = await tableRows(page, tableName);
    if (attempt === 50 || (headings.length > 0 && rows.every((cells) => cells.length === headings.length))) {
      return rows.map((cells) => Object.fromEntries(cells.map((cell, i) => [headings[i] ?? String(i), cell])));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The `<dd>` of a details list entry, by its `<dt>`, in the page or in a part of it. */
export function detail(scope: { locator(selector: string): Locator }, term: string): Locator {
  return scope.locator(`dt:text-is("${term}") + dd`);
}

export async function clipboard(page: Page): Promise<string> {
  return page.evaluate<string>('navigator.clipboard.readText()');
}
