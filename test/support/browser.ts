import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it with apt-get when it is missing. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The widths every page must be usable at: a laptop and a phone. */
export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

/** Screenshots go to test/artifacts/ at the repository root (gitignored); the build dir is one level below it. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test/artifacts/', import.meta.url));

/**
 * Headless Chromium, driven by playwright-core. `launch` gives the browser a fresh, temporary
 * --user-data-dir of its own (and refuses one in `args`), removed again by `close`.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the dashboard's browser tests need it. Install it with \`apt-get install -y chromium\` (.ci/run does this in CI).`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A fresh browser profile for one test: no shared session storage, clipboard allowed for the app's origin; `where` sets its time zone and language. */
export async function newContext(browser: Browser, baseUrl: string, where: { timezoneId?: string; locale?: string } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ ...where, baseURL: baseUrl, viewport: { width: WIDTHS[0].width, height: WIDTHS[0].height } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  return context;
}

/** An HTTP error the test expects the browser to log ("Failed to load resource: ... 404"). */
export interface ExpectedHttpError {
  status: number;
  /** Matched against the request's URL. */
  url: RegExp;
}

interface PageWatch {
  /** Console errors, uncaught exceptions and content security policy violations seen so far. */
  problems: string[];
  /** Lets a failed request that the scenario causes on purpose through. */
  expect(error: ExpectedHttpError): void;
}

const watches = new WeakMap<Page, PageWatch>();

/**
 * Opens a page that records every console error, uncaught exception and CSP violation, so
 * a test can assert that there were none (an init script is not subject to the page's CSP).
 */
export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  // The dashboard asks on load whether the browser holds a person's session: without one, the answer is a 401 the browser logs.
  const expected: ExpectedHttpError[] = [{ status: 401, url: /\/api\/admin\/v1\/me$/ }];
  const problems: string[] = [];
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));`);
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    const url = message.location().url;
    if (status && expected.some((e) => e.status === Number(status) && e.url.test(url))) return;
    problems.push(`console error: ${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.stack ?? error.message}`));
  watches.set(page, { problems, expect: (e) => expected.push(e) });
  return page;
}

export function expectHttpError(page: Page, error: ExpectedHttpError): void {
  watches.get(page)!.expect(error);
}

export function pageProblems(page: Page): string[] {
  return [...watches.get(page)!.problems];
}

export function assertNoPageProblems(page: Page): void {
  assert.deepEqual(pageProblems(page), [], 'console errors, uncaught exceptions or CSP violations');
}

/** The page's width against the window's, and (to explain a failure) the elements that stick out. */
const OVERFLOW_CHECK = `(() => {
  const culprits = [...document.body.querySelectorAll('*')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter((el) => { for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return false; return true; })
    .slice(0, 5)
    .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' (' + Math.round(el.getBoundingClientRect().right) + 'px)');
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprits };
})()`;

/**
 * Checks the current page at each width (no sideways scrolling of the page itself) and
 * saves a full-page screenshot of it, then goes back to the desktop width.
 */
export async function checkAtEachWidth(page: Page, name: string, prefix = 'dashboard'): Promise<void> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  for (const { name: device, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    // From the top, so the sticky header is not drawn halfway down the full-page picture.
    await page.evaluate('window.scrollTo(0, 0)');
    const overflow = await page.evaluate<{ scrollWidth: number; innerWidth: number; culprits: string[] }>(OVERFLOW_CHECK);
    assert.ok(overflow.scrollWidth <= overflow.innerWidth, `${name} at ${width}px scrolls sideways: ${overflow.scrollWidth}px wide, because of ${overflow.culprits.join(', ')}`);
    await page.screenshot({ path: `${ARTIFACTS_DIR}${prefix}-${name}-${device}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
}

/** What has the keyboard focus: its tag, accessible-ish name and whether a focus ring is drawn. */
export async function focused(page: Page): Promise<{ tag: string; text: string; id: string; outline: string }> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return { tag: el.tagName.toLowerCase(), text: (el.getAttribute('aria-label') || el.textContent || '').trim(), id: el.id, outline: style.outlineStyle + ' ' + style.outlineWidth };
  })()`);
}

export type Focus = Awaited<ReturnType<typeof focused>>;

/** Moves the focus with Tab (or Shift+Tab, backwards) and nothing else until `reached` says so; every element passed on the way is returned. */
export async function tabUntil(page: Page, reached: (focus: Focus) => boolean, what: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<Focus[]> {
  const passed: Focus[] = [];
  for (let presses = 0; presses < 40; presses++) {
    const focus = await focused(page);
    if (reached(focus)) return passed;
    passed.push(focus);
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached ${what}; the focus is on ${JSON.stringify(await focused(page))}`);
}

export async function sessionStorageLength(page: Page): Promise<number> {
  return page.evaluate<number>('sessionStorage.length');
}

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  nodes: string[];
}

/** axe-core's violations on the page as it is, with how bad each is and where it is. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated rather than added as a script tag, which the dashboard's CSP (script-src 'self') would block.
  await page.evaluate(await readFile(AXE_SOURCE, 'utf8'));
  return page.evaluate<AxeViolation[]>('axe.run(document).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, nodes: v.nodes.map((n) => n.target.join(" ")) })))');
}
