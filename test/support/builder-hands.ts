/**
 * What a person does with the dashboard's builder controls, by mouse or by keyboard alone (Tab,
 * arrows, Space, Enter), for the browser specs of the builder and of what it edits.
 */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { axeViolations } from './browser.js';

/** What a person does with the builder's controls: the same scenario, driven by the mouse or by the keyboard alone. */
export interface Hands {
  type(label: string, text: string): Promise<void>;
  choose(label: string, option: string): Promise<void>;
  tick(label: string): Promise<void>;
  press(button: string): Promise<void>;
  openTab(name: string): Promise<void>;
}

export const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
export const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

export function mouse(page: Page): Hands {
  return {
    type: (label, text) => field(page, label).fill(text),
    choose: async (label, option) => void (await field(page, label).selectOption({ label: option })),
    tick: (label) => field(page, label).check(),
    press: (name) => button(page, name).click(),
    openTab: (name) => page.getByRole('tab', { name, exact: true }).click(),
  };
}

/** Whether the focus is on `el`, or before or after it (2: DOCUMENT_POSITION_PRECEDING). */
// Runs in the page: the DOM's types are not compiled in here, so it names what it uses.
interface PageNode {
  ownerDocument: { activeElement: PageNode | null };
  compareDocumentPosition(other: PageNode): number;
}
export const placeOfFocus = (el: PageNode): 'here' | 'before' | 'after' => {
  const active = el.ownerDocument.activeElement;
  if (active === el) return 'here';
  return active && active.compareDocumentPosition(el) & 2 ? 'before' : 'after';
};

/** Tab or Shift+Tab (nothing else) until `target` has the focus. */
export async function tabTo(page: Page, target: Locator, what: string): Promise<void> {
  for (let presses = 0; presses < 200; presses++) {
    const where = await target.evaluate(placeOfFocus);
    if (where === 'here') return;
    await page.keyboard.press(where === 'before' ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`the keyboard never reached ${what}`);
}

export function keyboard(page: Page): Hands {
  return {
    async type(label, text) {
      await tabTo(page, field(page, label), label);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(text);
    },
    async choose(label, option) {
      const select = field(page, label);
      await tabTo(page, select, label);
      const options = await select.locator('option').allTextContents();
      const target = options.indexOf(option);
      assert.notEqual(target, -1, `${label} offers ${option}: ${options.join(', ')}`);
      const current = await select.evaluate((el: { selectedIndex: number }) => el.selectedIndex);
      for (let i = current; i !== target; i += target > current ? 1 : -1) await page.keyboard.press(target > current ? 'ArrowDown' : 'ArrowUp');
      assert.equal(await select.evaluate((el: { selectedOptions: { textContent: string | null }[] }) => el.selectedOptions[0]?.textContent), option);
    },
    async tick(label) {
      await tabTo(page, field(page, label), label);
      await page.keyboard.press('Space');
    },
    async press(name) {
      await tabTo(page, button(page, name), name);
      await page.keyboard.press('Enter');
    },
    async openTab(name) {
      // Only the selected tab is in the Tab order; the arrow keys select the others (WAI-ARIA tabs).
      const tabs = page.getByRole('tab');
      const names = await tabs.allTextContents();
      const target = names.indexOf(name);
      assert.notEqual(target, -1, `a ${name} tab among ${names.join(', ')}`);
      const current = await tabs.evaluateAll((els) => els.findIndex((el) => (el as unknown as { ariaSelected: string | null }).ariaSelected === 'true'));
      await tabTo(page, tabs.nth(current), 'the selected tab');
      for (let i = current; i !== target; i += target > current ? 1 : -1) await page.keyboard.press(target > current ? 'ArrowRight' : 'ArrowLeft');
      assert.equal(await tabs.nth(target).getAttribute('aria-selected'), 'true', `the ${name} tab is selected`);
    },
  };
}

/** axe-core's serious and critical violations (the builder's bar). */
export async function axeSerious(page: Page) {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
