/**
 * The dashboard's Audit page in headless Chromium: the organization's changes newest first,
 * filtered by action, newer entries loaded after the page's cursor and put on top, a refused
 * filter shown as an error; axe-core finds no serious or critical violation. Screenshots go to
 * test/artifacts/.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { auditAfter, FROM_THE_START } from '../support/audit-helpers.js';
import { assertNoPageProblems, checkAtEachWidth, expectHttpError, launchChromium, openPage, WIDTHS } from '../support/browser.js';
import { goToSection, listenOnLoopback, signIn, tableRows } from '../support/browser-dashboard.js';
import { createOrganization } from '../support/scenario.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ENTRIES = 'Audit entries';

/** axe-core's serious and critical violations on the page as it is, with where they are. */
async function seriousViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate<{ id: string; nodes: string[] }[]>(
    'axe.run(document).then((result) => result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) })))',
  );
}

describe('admin dashboard: the audit log in the browser', () => {
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

  it('lists the changes newest first, filters them, loads newer ones after its cursor and shows a refused filter', async () => {
    const org = await createOrganization(t);
    const change = (method: string, path: string, body: unknown) => t.request(method, `/api/admin/v1${path}`, { token: org.adminToken, body });
    assert.equal((await change('POST', '/tokens', { name: 'ci', scope: 'api' })).status, 201);
    assert.equal((await change('PUT', '/secrets/CRM_KEY', { value: 'crm-value' })).status, 200);
    await auditAfter(t, org.adminToken, FROM_THE_START, 4);

    // The test injects axe-core as a script, which the dashboard's CSP rightly refuses.
    const context = await browser.newContext({ baseURL: baseUrl, bypassCSP: true, viewport: { width: WIDTHS[0].width, height: WIDTHS[0].height } });
    try {
      const page = await openPage(context);
      await signIn(page, org.adminToken);
      await goToSection(page, 'Audit');
      const actions = async () => (await tableRows(page, ENTRIES)).map((row) => row[2]);
      assert.deepEqual(await actions(), ['secret.created', 'token.created', 'token.created', 'organization.created']);
      const [newest] = await tableRows(page, ENTRIES);
      assert.equal(newest![1], `Initial admin token (token ${(await t.request('GET', '/api/admin/v1/tokens', { token: org.adminToken })).body.tokens[0].id})`);
      assert.equal(newest![3], 'secret:CRM_KEY');
      assert.ok(!(await page.content()).includes('crm-value'), 'no secret value on the page');
      assert.deepEqual(await seriousViolations(page), [], 'the audit page');
      await checkAtEachWidth(page, 'audit');

      await page.getByLabel('Action').fill('token.created');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('region', { name: ENTRIES }).locator('tbody tr').nth(2).waitFor({ state: 'detached' });
      assert.deepEqual(await actions(), ['token.created', 'token.created']);

      assert.equal((await change('POST', '/tokens', { name: 'later', scope: 'api' })).status, 201);
      assert.equal((await change('DELETE', '/secrets/CRM_KEY', undefined)).status, 204);
      await auditAfter(t, org.adminToken, FROM_THE_START, 6);
      await page.getByRole('button', { name: 'Load newer entries' }).click();
      await page.getByText('1 newer entry added on top.').waitFor();
      const rows = await tableRows(page, ENTRIES);
      assert.deepEqual(rows.map((row) => row[2]), ['token.created', 'token.created', 'token.created'], 'only the filtered action, the newer one on top');
      assert.match(rows[0]![4]!, /"name":"later"/);
      await page.getByRole('button', { name: 'Load newer entries' }).click();
      await page.getByText('No newer entries.').waitFor();

      expectHttpError(page, { status: 422, url: /\/api\/admin\/v1\/audit\?/ });
      await page.getByLabel('Actor').fill('robot');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('actor must be type:id').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the audit page with a refused filter');
      assertNoPageProblems(page);
    } finally {
      await context.close();
    }
  });
});
