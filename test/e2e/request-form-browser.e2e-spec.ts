/**
 * The hosted request form in headless Chromium (playwright-core): a person fills it in and sends
 * it with the keyboard only, under its own strict CSP, sees the errors next to their fields, then
 * the confirmation page; axe-core finds no accessibility violation on the form, its error state
 * or the confirmation page. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertNoPageProblems, axeViolations, checkAtEachWidth, expectHttpError, focused, launchChromium, newContext, openPage, WIDTHS } from '../support/browser.js';
import { listenOnLoopback } from '../support/browser-dashboard.js';
import { attribute, formDefinition, type FormWorkflow, givenFormWorkflow } from '../support/form-helpers.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

/** A form a person can fill in from the keyboard alone: text, email, integer, checkbox, choice and JSON fields. */
const KEYBOARD_DEFINITION = formDefinition({
  name: 'Facilities requests',
  attributes: {
    requester_email: { type: 'string', required: true, format: 'email' },
    seats: { type: 'integer', required: true },
    urgent: { type: 'boolean' },
    priority: { type: 'string', enum: ['low', 'high'], required: true },
    details: { type: 'object' },
  },
});

type Focus = Awaited<ReturnType<typeof focused>>;

/** Moves the focus with Tab (and nothing else) until `reached` says so; every element passed on the way is returned. */
async function tabUntil(page: Page, reached: (focus: Focus) => boolean, what: string): Promise<Focus[]> {
  const passed: Focus[] = [];
  for (let presses = 0; presses < 40; presses++) {
    const focus = await focused(page);
    if (reached(focus)) return passed;
    passed.push(focus);
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}; the focus is on ${JSON.stringify(await focused(page))}`);
}

const tabTo = (page: Page, id: string) => tabUntil(page, (focus) => focus.id === id, `#${id}`);
const tabToSendButton = (page: Page) => tabUntil(page, (focus) => focus.tag === 'button', 'the send button');

/** The control labelled `label`'s id, read from the page's own `<label for>`. */
async function idOf(page: Page, label: string): Promise<string> {
  const id = await page.locator('label', { hasText: label }).first().getAttribute('for');
  assert.ok(id, `no label "${label}"`);
  return id;
}

async function replaceText(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

describe('hosted request form in the browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let w: FormWorkflow;

  before(async () => {
    t = await startTestApp();
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
    w = await givenFormWorkflow(t, KEYBOARD_DEFINITION);
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await closeDb();
  });

  it('is filled in and sent with the keyboard only: field errors next to their fields, then the confirmation page with the case id', async () => {
    const context = await newContext(browser, baseUrl);
    try {
      const page = await openPage(context);
      // The browser logs the 422 of the form posted with errors; that answer is the point here.
      expectHttpError(page, { status: 422, url: /\/forms\/[A-Za-z0-9_-]{43}$/ });
      await page.goto(w.path);
      assert.equal(await page.title(), 'Facilities requests – request form');
      await checkAtEachWidth(page, 'empty', 'request-form');

      await page.keyboard.press('Tab');
      const first = await focused(page);
      assert.equal(first.id, 'subject', 'the first Tab reaches the first field');
      assert.notEqual(first.outline.split(' ')[0], 'none', 'the focus is visible');
      await page.keyboard.type('Broken chair');
      await tabTo(page, await idOf(page, 'Description'));
      await page.keyboard.type('Room 4, the one by the window.');
      await tabTo(page, await idOf(page, 'Requester email'));
      await page.keyboard.type('ana@');
      await tabTo(page, await idOf(page, 'Seats'));
      await page.keyboard.type('twelve');
      await tabTo(page, await idOf(page, 'Urgent'));
      await page.keyboard.press('Space');
      await tabTo(page, await idOf(page, 'Details'));
      await page.keyboard.type('{"model": "X1"}');
      const passed = await tabToSendButton(page);
      assert.ok(!passed.some((focus) => focus.id === 'website'), 'Tab skips the honeypot');
      const [invalid] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      assert.equal(invalid?.status(), 422);

      assert.match(await page.title(), /^Error: /);
      assert.match((await focused(page)).text, /^There is a problem/, 'the error summary has the focus');
      for (const [label, message] of [['Requester email', /Enter an email address/], ['Seats', /Enter a whole number/], ['Priority', /required/]] as const) {
        const id = await idOf(page, label);
        assert.match(await page.locator(`#${id}-error`).innerText(), message, label);
        assert.equal(await page.locator(`#${id}`).getAttribute('aria-invalid'), 'true', label);
        assert.match(await page.locator('.error-summary').innerText(), message, `${label} in the summary`);
      }
      assert.equal(await page.locator(`#${await idOf(page, 'Seats')}`).inputValue(), 'twelve', 'values are kept');
      await checkAtEachWidth(page, 'errors', 'request-form');

      await tabTo(page, await idOf(page, 'Requester email'));
      await replaceText(page, 'ana@example.com');
      await tabTo(page, await idOf(page, 'Seats'));
      await replaceText(page, '12');
      await tabTo(page, await idOf(page, 'Priority'));
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.locator(`#${await idOf(page, 'Priority')}`).inputValue(), '"high"');
      await tabToSendButton(page);
      const [received] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      assert.equal(received?.status(), 200);

      assert.equal(await page.locator('h1').innerText(), 'Request received');
      const { rows } = await db().query('SELECT id, subject, attributes::text AS attributes FROM cases WHERE workflow_id = $1', [w.workflowId]);
      assert.equal(rows.length, 1);
      assert.match(await page.locator('main').innerText(), new RegExp(`case number ${rows[0].id}\\b`));
      assert.equal(rows[0].subject, 'Broken chair');
      assert.deepEqual(JSON.parse(rows[0].attributes), {
        description: 'Room 4, the one by the window.',
        requester_email: 'ana@example.com',
        seats: 12,
        urgent: true,
        priority: 'high',
        details: { model: 'X1' },
      });
      await checkAtEachWidth(page, 'received', 'request-form');
      assertNoPageProblems(page);
    } finally {
      await context.close();
    }
  });

  it('axe-core finds no accessibility violation on the form, its error state and the confirmation page', async () => {
    // The test injects axe-core as a script, which the page's own CSP rightly refuses.
    const context: BrowserContext = await browser.newContext({ baseURL: baseUrl, bypassCSP: true, viewport: { width: WIDTHS[0].width, height: WIDTHS[0].height } });
    try {
      const page = await context.newPage();
      await page.goto(w.path);
      assert.deepEqual(await axeViolations(page), [], 'the form');
      await page.locator(`[name="${attribute('seats')}"]`).fill('1.5');
      await Promise.all([page.waitForNavigation(), page.locator('button[type=submit]').click()]);
      assert.equal(await page.locator('.error-summary').count(), 1);
      assert.deepEqual(await axeViolations(page), [], 'the form with errors');
      await page.locator(`[name="${attribute('requester_email')}"]`).fill('ana@example.com');
      await page.locator(`[name="${attribute('seats')}"]`).fill('2');
      await page.locator(`[name="${attribute('priority')}"]`).selectOption('"low"');
      await Promise.all([page.waitForNavigation(), page.locator('button[type=submit]').click()]);
      assert.equal(await page.locator('h1').innerText(), 'Request received');
      assert.deepEqual(await axeViolations(page), [], 'the confirmation page');
    } finally {
      await context.close();
    }
  });
});
