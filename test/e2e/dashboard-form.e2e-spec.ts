/**
 * The dashboard's request-form panel in headless Chromium: a ticketing workflow's form URL
 * generated on its Case Configuration tab (copy, open in a new tab), and a Form case in the
 * case list's source column and filter. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoPageProblems, checkAtEachWidth, expectHttpError, launchChromium } from '../support/browser.js';
import { clipboard, givenSignedIn, goToSection, heading, listenOnLoopback, tableRecords } from '../support/browser-dashboard.js';
import { attribute, formDefinition } from '../support/form-helpers.js';
import { createOrganization, createWorkflow } from '../support/scenario.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

describe('admin dashboard: ticketing workflows’ request form in the browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  before(async () => {
    t = await startTestApp();
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await closeDb();
  });

  it('generates a ticketing workflow’s form URL on its page, opens it, and lists its Form cases', async () => {
    const org = await createOrganization(t);
    const workflowId = await createWorkflow(t, org, formDefinition({ name: 'IT requests', attributes: { room: { type: 'string' } } }));
    const { context, page } = await givenSignedIn(t, browser, baseUrl, org);
    expectHttpError(page, { status: 404, url: /\/api\/admin\/v1\/workflows\/[0-9]+\/form$/ });
    await page.goto(`/dashboard/workflows/${workflowId}?tab=case-configuration`);
    await heading(page, 'IT requests').waitFor();
    const card = page.getByRole('region', { name: 'Request Form' });
    assert.equal(await page.getByRole('region', { name: 'Inbound Email' }).count(), 0);
    await card.getByRole('button', { name: 'Generate form URL' }).click();
    const url = await page.getByLabel('Form URL').inputValue();
    const shown = await t.request('GET', `/api/admin/v1/workflows/${workflowId}/form`, { token: org.adminToken });
    assert.deepEqual(shown.body, { form: { url } });
    assert.match(url, /\/forms\/[^/]+$/);
    await card.getByRole('button', { name: 'Copy URL' }).click();
    await card.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await clipboard(page), url);
    const open = card.getByRole('link', { name: 'Open the form (opens in a new tab)' });
    assert.deepEqual([await open.getAttribute('href'), await open.getAttribute('target'), await open.getAttribute('rel')], [url, '_blank', 'noopener noreferrer']);
    await checkAtEachWidth(page, 'workflow-form-url');
    await page.reload();
    assert.equal(await page.getByLabel('Form URL').inputValue(), url);
    assert.equal(await card.getByRole('button', { name: 'Generate form URL' }).count(), 0);

    // The form (served at PUBLIC_BASE_URL, so post to its path here) makes a Form case.
    const posted = await fetch(`${baseUrl}${new URL(url).pathname}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ subject: 'Projector broken', description: 'No picture', [attribute('room')]: 'B12' }) });
    assert.equal(posted.status, 303, await posted.text());
    await goToSection(page, 'Cases');
    assert.deepEqual((await tableRecords(page, 'Cases')).map((row) => [row['Subject'], row['Source']]), [['Projector broken', 'Form']]);
    await page.getByLabel('Source').selectOption('Form');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/\/dashboard\/cases\?source=Form$/);
    assert.deepEqual((await tableRecords(page, 'Cases')).map((row) => row['Source']), ['Form']);
    assertNoPageProblems(page);
    await context.close();
  });
});
