/**
 * The case page's run traces in headless Chromium: a Runs section with one article per run,
 * headed by the status it started in and its state, its steps in a table (path, type, outcome,
 * tries, HTTP status, error), reachable with the keyboard; axe-core finds no serious or
 * critical violation. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createCase, EMAIL, givenAutomation, receiverFor, waitForSettled } from '../support/automation-helpers.js';
import { assertNoPageProblems, checkAtEachWidth, focused } from '../support/browser.js';
import { dashboardSuite, givenSignedIn, heading, tableRows } from '../support/browser-dashboard.js';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core's serious and critical violations on the page as it is, with where they are. The
 * dashboard's CSP refuses a script tag added to it; evaluated through the DevTools protocol, axe
 * is not subject to it.
 */
async function seriousAxeViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  await page.evaluate(await readFile(AXE_SOURCE, 'utf8'));
  return page.evaluate<{ id: string; nodes: string[] }[]>(
    'axe.run(document).then((result) => result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) })))',
  );
}

describe('admin dashboard: a case\'s run traces in the browser', () => {
  const suite = dashboardSuite();

  it('shows each run with the steps it executed, usable with the keyboard and without serious axe violations', async (test) => {
    const { t, browser, baseUrl } = suite;
    const receiver = await receiverFor(test, (_n, request) => (request.url.startsWith('/down') ? { status: 503 } : { status: 200, body: { ok: true } }));
    const w = await givenAutomation(t, {
      Open: [
        { if: { field: 'attributes.priority', equals: 1 }, then: [{ set_attributes: { queue: 'vip' } }] },
        { http_request: { method: 'POST', url: `${receiver.url}/hooks`, retries: 0 } },
        { set_status: 'Triage' },
      ],
      Triage: [{ http_request: { method: 'PUT', url: `${receiver.url}/down`, retries: 0 } }],
    });
    const id = await createCase(w, { attributes: { customer_email: EMAIL, priority: 2 } });
    await waitForSettled(id, 'Error');

    const { page, context } = await givenSignedIn(t, browser, baseUrl, w.org);
    await page.goto(`/dashboard/cases/${id}`);
    await heading(page, `Case #${id}`).waitFor();
    const runs = page.getByRole('region', { name: 'Runs', exact: true });
    await runs.getByRole('heading', { level: 2, name: 'Runs' }).waitFor();
    const articles = runs.getByRole('article');
    await articles.nth(1).waitFor();
    assert.equal(await articles.count(), 2);
    const titles = await articles.getByRole('heading', { level: 3 }).allTextContents();
    assert.match(titles[0]!, /Open: succeeded$/);
    assert.match(titles[1]!, /Triage: failed$/);

    const [openRun, triageRun] = titles.map((title) => /Run #([0-9]+)/.exec(title)![1]);
    const headers = await articles.first().locator('thead th').allTextContents();
    assert.deepEqual(headers, ['Step', 'Type', 'Outcome', 'Attempts', 'HTTP status', 'Error']);
    assert.deepEqual(await tableRows(page, `Steps of run #${openRun}`), [
      ['/automations/Open/0', 'if', 'else', '1', '—', '—'],
      ['/automations/Open/1', 'http_request', 'sent', '1', '200', '—'],
      ['/automations/Open/2', 'set_status', 'move', '1', '—', '—'],
    ]);
    const refused = `http_request: PUT ${receiver.url}/down answered 503 (after 0 retries)`;
    assert.deepEqual(await tableRows(page, `Steps of run #${triageRun}`), [['/automations/Triage/0', 'http_request', 'error', '1', '503', refused]]);

    // The step tables scroll sideways on a narrow screen: the keyboard reaches them.
    let reached = false;
    for (let press = 0; press < 60 && !reached; press++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate('document.activeElement?.getAttribute("aria-label")')) === `Steps of run #${openRun}`;
    }
    assert.ok(reached, `Tab never reached the steps of run #${openRun}; last focus: ${JSON.stringify(await focused(page))}`);

    assert.deepEqual(await seriousAxeViolations(page), [], 'the case page with its runs');
    await checkAtEachWidth(page, 'case-runs');
    assertNoPageProblems(page);
    await context.close();
  });
});
