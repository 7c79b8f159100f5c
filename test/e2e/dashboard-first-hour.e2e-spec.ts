/**
 * A newcomer's first hour in the dashboard (issue 23, items 3 to 6 and 8), in headless Chromium:
 * the top bar on one line at every desktop width, with the organization's settings in a
 * keyboard-operable menu and the signed-in role beside the product name; "New workflow" opening
 * the builder on a named template; pickers for a condition's field, a set_status target and an
 * enum's values; a status removed only after a confirmation naming its steps, and a renamed one
 * carrying its steps and the steps that move cases to it; a viewer's dashboard naming workflows,
 * filling the case filters and naming the role a page needs. axe-core on the menu, the pickers,
 * the dialog and the refusal.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertNoPageProblems, axeViolations, focused } from '../support/browser.js';
import { heading, peopleDashboardSuite, sessionPage, tableRows } from '../support/browser-dashboard.js';
import { asSession, givenMember, givenOwnedOrganization, type PeopleOrganization, type Session } from '../support/people-helpers.js';
import { createToken, createWorkflow, sampleDefinition } from '../support/scenario.js';

async function axeSerious(page: Page) {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** What the line count below uses of the page's DOM (its types are not compiled in here). */
interface TextBox {
  childNodes: Iterable<TextBox>;
  nodeType: number;
  ownerDocument: { createRange(): { selectNodeContents(node: TextBox): void; getClientRects(): Iterable<{ width: number; top: number }> } };
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('admin dashboard: a newcomer\'s first hour', () => {
  const suite = peopleDashboardSuite();
  let org: PeopleOrganization;
  let viewer: Session;
  let workflowId: number;

  before(async () => {
    org = await givenOwnedOrganization(suite.t, suite.sink, suite.origin);
    viewer = await givenMember(suite.t, suite.sink, org, 'viewer', suite.origin);
    workflowId = await createWorkflow(suite.t, org, sampleDefinition({ name: 'Orders' }));
    const token = await createToken(suite.t, org);
    const created = await suite.t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: token.secret, body: { subject: 'Broken order', attributes: { customer_email: 'ada@example.com' } } });
    assert.equal(created.status, 201, created.text);
  });

  const givenSessionPage = (session: Session) => sessionPage(suite, session);

  it('keeps the top bar on one line from 1024 to 1920 pixels, the settings in a keyboard menu, the role beside the name', async () => {
    const { context, page } = await givenSessionPage(org.owner);
    for (const width of [1024, 1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      const items = nav(page).locator('.nav__list > li > a, .nav__list > li > .nav-menu > button');
      // A wrapped word has its text on more than one line box.
      const lines = await items.evaluateAll((els) =>
        (els as unknown as TextBox[]).map((el) => {
          const range = el.ownerDocument.createRange();
          const tops = new Set<number>();
          for (const node of [...el.childNodes].filter((child) => child.nodeType === 3)) {
            range.selectNodeContents(node);
            for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
          }
          return tops.size;
        }),
      );
      assert.ok(lines.every((count) => count === 1), `no nav item wraps at ${width}px: ${lines.join(', ')} lines`);
      assert.deepEqual(await items.allInnerTexts(), ['Workflows', 'Cases', 'Reports', 'Usage', 'Subscriptions', 'Settings'], `${width}px`);
      // One row: every item and Sign out side by side, and a header under 80 px (two rows made it 110).
      const tops = await Promise.all([...(await items.all()), page.getByRole('button', { name: 'Sign out' })].map(async (item) => (await item.boundingBox())!));
      assert.ok(tops.every((box) => box.y < tops[0]!.y + tops[0]!.height && tops[0]!.y < box.y + box.height), `one row at ${width}px: ${tops.map((box) => box.y).join(', ')}`);
      const header = await page.getByRole('banner').boundingBox();
      assert.ok(header && header.height < 80, `the header is one line at ${width}px: ${header?.height}px`);
      const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
      assert.ok(signOut && signOut.x + signOut.width <= width, `Sign out is on screen at ${width}px`);
    }
    assert.equal(await page.locator('.brand__tag').innerText(), 'Owner');

    // The Settings menu, keyboard only: Enter opens it, the arrow keys move, Escape closes it.
    const settings = nav(page).getByRole('button', { name: 'Settings' });
    assert.equal(await settings.getAttribute('aria-expanded'), 'false');
    await settings.focus();
    await page.keyboard.press('Enter');
    assert.equal(await settings.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await nav(page).locator(`[id="${await settings.getAttribute('aria-controls')}"]`).getByRole('link').allInnerTexts(), ['Tokens', 'Retention', 'Users', 'Single sign-on', 'Audit']);
    assert.deepEqual(await axeSerious(page), [], 'the open Settings menu');
    await page.keyboard.press('ArrowDown');
    await page.locator('a:focus', { hasText: 'Tokens' }).waitFor();
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(page)).text, 'Retention');
    await page.keyboard.press('Escape');
    assert.equal(await settings.getAttribute('aria-expanded'), 'false');
    assert.equal((await focused(page)).text, 'Settings');
    await page.keyboard.press('ArrowDown');
    await page.locator('a:focus', { hasText: 'Tokens' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await heading(page, 'Users').waitFor();
    assert.equal(await settings.getAttribute('aria-expanded'), 'false', 'the menu closes on the new page');
    assertNoPageProblems(page);
    await context.close();
  });

  it('opens New workflow on the builder with named templates, creates one, and offers pickers where the builder knows the answer', async () => {
    const { context, page } = await givenSessionPage(org.owner);
    await page.getByRole('link', { name: 'New workflow' }).first().click();
    await heading(page, 'New workflow').waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Builder' }).getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByLabel('Definition (JSON)').count(), 0, 'no JSON text area to strip');
    assert.equal(await page.getByRole('radio', { name: /Empty/ }).isChecked(), true);
    assert.equal(await field(page, 'Name').inputValue(), 'New workflow');
    assert.equal(await page.getByRole('heading', { name: 'Attribute schema' }).count(), 1);
    assert.equal(await page.getByRole('group', { name: /^Attribute / }).count(), 0, 'the empty template declares nothing');
    await page.getByRole('radio', { name: /Webhook triage/ }).check();
    assert.equal(await field(page, 'Name').inputValue(), 'Webhook triage');
    await page.getByRole('radio', { name: /Support request/ }).check();
    assert.equal(await field(page, 'Name').inputValue(), 'Support requests');
    assert.deepEqual(await axeSerious(page), [], 'the new workflow page');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await heading(page, 'Support requests').waitFor();
    const id = Number(/\/workflows\/([0-9]+)/.exec(page.url())![1]);
    const created = await suite.t.request('GET', `/api/admin/v1/workflows/${id}`, { token: org.adminToken });
    assert.deepEqual(created.body.workflow.attributes.category, { type: 'string', enum: ['billing', 'technical', 'other'] });
    await page.getByRole('tab', { name: 'Builder' }).click();
    await page.getByRole('heading', { name: 'Automations' }).waitFor();

    // The condition's field: the case's fields and the declared attributes.
    const condition = field(page, 'Field');
    assert.equal(await condition.evaluate((el) => el.tagName), 'SELECT');
    assert.deepEqual(await condition.locator('option').allInnerTexts(), ['case.id', 'case.subject', 'case.status', 'case.mode', 'case.workflow_id', 'attributes.customer_email', 'attributes.category']);
    assert.equal(await condition.inputValue(), 'attributes.category');
    // set_status: the declared statuses.
    const target = field(page, 'Arguments of Open step 1 then step 1');
    assert.equal(await target.evaluate((el) => el.tagName), 'SELECT');
    assert.deepEqual(await target.locator('option').allInnerTexts(), ['Open', 'Triage', 'Waiting on customer', 'Closed']);
    await target.selectOption('Waiting on customer');
    // An enum's values, one field each.
    assert.equal(await field(page, 'Allowed value 1 of attribute category').inputValue(), 'billing');
    await page.getByRole('button', { name: 'Remove allowed value 3 of attribute category' }).click();
    await page.getByRole('button', { name: 'Add an allowed value to attribute category' }).click();
    await field(page, 'Allowed value 3 of attribute category').fill('refund');
    assert.deepEqual(await axeSerious(page), [], 'the builder\'s pickers');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const saved = (await suite.t.request('GET', `/api/admin/v1/workflows/${id}`, { token: org.adminToken })).body.workflow;
    assert.deepEqual(saved.attributes.category.enum, ['billing', 'technical', 'refund']);
    assert.deepEqual(saved.automations.Open, [{ if: { field: 'attributes.category', equals: 'billing' }, then: [{ set_status: 'Waiting on customer' }] }]);
    assertNoPageProblems(page);
    await context.close();
  });

  it('refuses a condition on an undeclared attribute at its pointer, and says which values an enum takes as a person would', async () => {
    const refused = await suite.t.request('POST', '/api/admin/v1/workflows', {
      token: org.adminToken,
      body: { name: 'Typo', case_source: 'direct', attributes: { tier: { type: 'string' } }, automations: { Open: [{ if: { field: 'attributes.teir', equals: 'gold' }, then: [] }] } },
    });
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(refused.body.validation_errors, [{ path: '/automations/Open/0/if/field', error: 'attribute "teir" is not declared in /attributes' }]);

    const id = await createWorkflow(suite.t, org, { name: 'Tiers', case_source: 'direct', attributes: { tier: { type: 'string', enum: ['gold', 'silver', 'bronze'] } } }, false);
    const run = await suite.t.request('POST', `/api/admin/v1/workflows/${id}/test_runs`, { token: org.adminToken, body: { attributes: { tier: 'tin' } } });
    assert.equal(run.status, 422, run.text);
    assert.deepEqual(run.body.validation_errors, [{ path: '/tier', error: 'must be one of: gold, silver, bronze, or empty' }]);
  });

  it('asks before removing a status that has steps, and carries its steps and the steps moving to it when it is renamed', async () => {
    const id = await createWorkflow(suite.t, org, {
      name: 'Statuses',
      case_source: 'direct',
      statuses: ['Triage', 'Spare'],
      attributes: { vip: { type: 'boolean' } },
      automations: {
        Open: [{ if: { field: 'attributes.vip', equals: true }, then: [{ set_status: 'Triage' }], else: [{ set_status: 'Triage' }] }],
        Triage: [{ set_attributes: { seen: true } }, { close: { outcome: 'Done' } }],
      },
    }, false);
    const { context, page } = await givenSessionPage(org.owner);
    await page.goto(`/dashboard/workflows/${id}?tab=builder`);
    await page.getByRole('heading', { name: 'Automations' }).waitFor();

    // A status without steps goes at once.
    await page.getByRole('button', { name: 'Remove status Spare' }).click();
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Remove status Spare' }).count(), 0);

    await page.getByRole('button', { name: 'Remove status Triage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove status Triage?' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Its 2 steps go with it\./);
    assert.deepEqual(await axeSerious(page), [], 'the confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await field(page, 'Name of status 1').inputValue(), 'Triage', 'kept');

    await field(page, 'Name of status 1').fill('Review');
    await field(page, 'Name of status 1').press('Tab');
    await page.getByRole('heading', { name: 'When a case enters Review' }).waitFor();
    assert.equal(await field(page, 'Arguments of Open step 1 then step 1').inputValue(), 'Review');
    assert.equal(await field(page, 'Arguments of Open step 1 else step 1').inputValue(), 'Review');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const saved = (await suite.t.request('GET', `/api/admin/v1/workflows/${id}`, { token: org.adminToken })).body.workflow;
    assert.deepEqual(saved.statuses, ['Open', 'Closed', 'Error', 'Review']);
    assert.deepEqual(saved.automations, {
      Open: [{ if: { field: 'attributes.vip', equals: true }, then: [{ set_status: 'Review' }], else: [{ set_status: 'Review' }] }],
      Review: [{ set_attributes: { seen: true } }, { close: { outcome: 'Done' } }],
    });

    await page.getByRole('button', { name: 'Remove status Review' }).click();
    await page.getByRole('dialog', { name: 'Remove status Review?' }).getByRole('button', { name: 'Remove status and its steps' }).click();
    await page.getByRole('heading', { name: 'When a case enters Review' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: 'Remove status Review' }).count(), 0);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows a viewer workflows by name, filled-in case filters, no link it cannot follow, and the role a page needs', async () => {
    const { context, page } = await givenSessionPage(viewer);
    await heading(page, 'Cases').waitFor();
    assert.deepEqual(await nav(page).getByRole('link', { includeHidden: true }).allInnerTexts(), ['Cases', 'Reports', 'Usage']);
    assert.equal((await tableRows(page, 'Cases'))[0]![2], 'Orders');
    assert.equal(await page.getByRole('region', { name: 'Cases' }).getByRole('link', { name: 'Orders' }).count(), 0, 'no link to a page the viewer may not open');
    assert.ok((await field(page, 'Workflow').locator('option').allInnerTexts()).some((o) => o.startsWith('Orders')));
    const statuses = await field(page, 'Status').locator('option').allInnerTexts();
    for (const status of ['Any status', 'Open', 'Closed', 'Triage', 'Waiting on customer']) assert.ok(statuses.includes(status), `${status} among ${statuses.join(', ')}`);

    await page.getByRole('link', { name: /^#[0-9]+$/ }).first().click();
    await page.getByText('Broken order').first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'Orders' }).count(), 0);
    await page.getByText('Orders', { exact: true }).first().waitFor();
    assert.equal(await page.locator('.brand__tag').innerText(), 'Viewer');

    await page.goto(`/dashboard/workflows/${workflowId}`);
    await heading(page, 'You need the editor role to see this').waitFor();
    assert.deepEqual(await axeSerious(page), [], 'the refusal');
    await page.goto('/dashboard/tokens');
    await heading(page, 'You need the admin role to see this').waitFor();
    await page.goto('/dashboard/no-such-page');
    await heading(page, 'Page not found').waitFor();
    assertNoPageProblems(page);
    await context.close();

    // Names and statuses only: a definition (its receivers, headers and steps) stays an editor's.
    const names = await asSession(suite.t, viewer, suite.origin, 'GET', '/api/admin/v1/workflow_names');
    assert.equal(names.status, 200, names.text);
    assert.deepEqual(names.body.workflows.find((w: { id: number }) => w.id === workflowId), { id: workflowId, name: 'Orders', statuses: ['Open', 'Closed', 'Error', 'Triage', 'Waiting on customer'] });
    assert.equal((await asSession(suite.t, viewer, suite.origin, 'GET', '/api/admin/v1/workflows')).status, 403);
  });
});
