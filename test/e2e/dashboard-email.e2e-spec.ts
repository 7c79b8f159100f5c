/**
 * The dashboard's email channel in headless Chromium: an email workflow's inbound address
 * generated on its page, and an email case (sent over real SMTP to the test app's listener)
 * whose thread shows each message's headers and text as text, the HTML part only on demand in
 * a frame sandboxed with no permissions (a script in the mail does not run), and attachments
 * downloaded with the admin token, byte for byte. Screenshots go to test/artifacts/.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ARTIFACTS_DIR, assertNoPageProblems, checkAtEachWidth, expectHttpError, launchChromium, pageProblems } from '../support/browser.js';
import { clipboard, detail, givenSignedIn, goToSection, heading, listenOnLoopback, tableRecords } from '../support/browser-dashboard.js';
import { adminCase, caseIdsOf, emailDefinition, givenEmailWorkflow, mail, type MailApp, sendAccepted, startMailApp, timeline } from '../support/email-helpers.js';
import { createOrganization, createWorkflow } from '../support/scenario.js';
import { closeDb } from '../support/test-app.js';

/**
 * What Chromium logs when the HTML part's frame refuses something: its script (sandbox), and,
 * under the dashboard's policy that the srcdoc document inherits, its inline style and a remote
 * image. Each is expected once the HTML part is shown: the proof that the mail held it and it was refused.
 */
const REFUSED_IN_FRAME = {
  script: /^console error: Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\./,
  inlineStyle: /^console error: Applying inline style violates the following Content Security Policy directive 'style-src 'self''.*\(about:srcdoc\)$/,
  remoteImage: /^console error: Loading the image 'http:\/\/127\.0\.0\.1:[0-9]+\/pixel\.gif' violates the following Content Security Policy directive: "img-src 'self' data:"\. The action has been blocked\. \(about:srcdoc\)$/,
};
const refusedInFrame = (problem: string) => Object.values(REFUSED_IN_FRAME).some((pattern) => pattern.test(problem));

/** A web server that counts the requests it gets: a tracking pixel's host. */
async function countingServer(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'content-type': 'image/gif' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits: () => hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('admin dashboard: email workflows and email cases in the browser', () => {
  let t: MailApp;
  let baseUrl: string;
  let browser: Browser;
  let tracker: Awaited<ReturnType<typeof countingServer>>;

  before(async () => {
    tracker = await countingServer();
    t = await startMailApp({ INBOUND_EMAIL_DOMAIN: 'inbound.example' });
    baseUrl = await listenOnLoopback(t);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await closeDb();
    await tracker.close();
  });

  it('generates an email workflow’s inbound address on its Case Configuration tab, once it is published', async () => {
    const org = await createOrganization(t);
    const draftId = await createWorkflow(t, org, emailDefinition({ name: 'Draft inbox' }), false);
    const workflowId = await createWorkflow(t, org, emailDefinition());
    const { context, page } = await givenSignedIn(t, browser, baseUrl, org);
    expectHttpError(page, { status: 404, url: /\/api\/admin\/v1\/workflows\/[0-9]+\/email_address$/ });

    await page.goto(`/dashboard/workflows/${draftId}?tab=case-configuration`);
    await heading(page, 'Draft inbox').waitFor();
    const card = page.getByRole('region', { name: 'Inbound Email' });
    const generate = card.getByRole('button', { name: 'Generate email address' });
    await generate.waitFor();
    assert.equal(await generate.isDisabled(), true, 'an unpublished workflow cannot have an address');
    const blockerId = await generate.getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${blockerId}"]`).textContent(), 'Publish the workflow first: only a published workflow can have an inbound email address.');
    assert.equal(await page.getByRole('region', { name: 'Request Form' }).count(), 0, 'the form is for ticketing workflows only');

    await page.goto(`/dashboard/workflows/${workflowId}?tab=case-configuration`);
    await heading(page, 'Support inbox').waitFor();
    await generate.click();
    const address = await page.getByLabel('Inbound email address').inputValue();
    assert.match(address, /^case-[a-z2-7]{52}@inbound\.example$/);
    const shown = await t.request('GET', `/api/admin/v1/workflows/${workflowId}/email_address`, { token: org.adminToken });
    assert.deepEqual(shown.body, { email_address: { address } });
    await card.getByRole('button', { name: 'Copy address' }).click();
    await card.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await clipboard(page), address);
    assert.equal(await page.getByRole('region', { name: 'Incoming Webhook' }).count(), 0, 'only direct workflows take webhook deliveries');
    await checkAtEachWidth(page, 'workflow-email-address');

    // Coming back shows the same address (GET), with no second "generate"; mail to it becomes a case.
    await page.reload();
    assert.equal(await page.getByLabel('Inbound email address').inputValue(), address);
    assert.equal(await generate.count(), 0);
    await sendAccepted(t, address, mail({ Subject: 'To the generated address' }, 'hello\n'));
    assert.equal((await caseIdsOf(workflowId)).length, 1);
    assertNoPageProblems(page);
    await context.close();
  });

  it('shows an email case’s thread: headers, text as text, HTML in a sandboxed frame on demand, attachments downloaded byte for byte', async () => {
    const w = await givenEmailWorkflow(t);
    const pdf = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 131 + 7) % 256));
    const text = 'Hello,\n\nthe box was <b>crushed</b> & wet.\n    An indented line.\n';
    const html = `<html><body><p id="greeting" style="color: red">Hello, the box was <b>crushed</b>.</p><script>document.body.append(Object.assign(document.createElement('p'), { id: 'script-ran' })); top.document.title = 'pwned';</script><img src="http://127.0.0.1:${tracker.port}/pixel.gif" alt=""></body></html>`;
    await sendAccepted(t, w.address, mail({
      From: '"Ada Lovelace" <ada@example.com>',
      To: `Support <${w.address}>`,
      Cc: 'grace@example.com, Linus <linus@example.com>',
      Subject: 'Order 1042 <arrived> damaged',
      'Message-ID': '<dash-1@example.com>',
      Date: 'Tue, 24 Nov 2026 10:11:12 +0100',
      'Content-Type': 'multipart/mixed; boundary=mix',
    }, [
      '--mix', 'Content-Type: multipart/alternative; boundary=alt', '',
      '--alt', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', Buffer.from(text).toString('base64'),
      '--alt', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', '', Buffer.from(html).toString('base64'), '--alt--',
      '--mix', 'Content-Type: application/pdf', 'Content-Transfer-Encoding: base64', 'Content-Disposition: attachment; filename="damage-report.pdf"', '', pdf.toString('base64').replace(/.{76}/g, '$&\n'),
      '--mix--', '',
    ].join('\n')));
    await sendAccepted(t, w.address, mail({ From: 'Ada <ada@example.com>', Subject: 'Re: Order 1042', 'Message-ID': '<dash-2@example.com>', 'In-Reply-To': '<dash-1@example.com>' }, 'A second photo follows.\n'));
    const [caseId] = await caseIdsOf(w.workflowId);
    const stored = (await adminCase(t, w, caseId!)).attributes.email;
    assert.equal(stored.text, text);
    const [attachment] = stored.attachments;

    const { context, page } = await givenSignedIn(t, browser, baseUrl, w.org);
    await goToSection(page, 'Cases');
    assert.deepEqual((await tableRecords(page, 'Cases')).map((row) => [row['Case'], row['Source']]), [[`#${caseId}`, 'Email']]);
    await page.getByLabel('Source').selectOption('Email');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/\/dashboard\/cases\?source=Email$/);
    await page.getByRole('link', { name: `#${caseId}` }).click();
    await heading(page, `Case #${caseId}`).waitFor();
    assert.equal(await detail(page, 'Source').textContent(), 'Email');

    const thread = page.getByRole('region', { name: /^Email thread/ });
    const messages = thread.getByRole('article');
    await messages.nth(1).waitFor();
    assert.equal(await messages.count(), 2);
    const first = messages.nth(0);
    assert.equal(await first.getByRole('heading', { level: 3 }).textContent(), 'Order 1042 <arrived> damaged');
    assert.deepEqual(
      [await detail(first, 'From').textContent(), await detail(first, 'To').textContent(), await detail(first, 'Cc').textContent()],
      ['Ada Lovelace <ada@example.com>', `Support <${w.address}>`, 'grace@example.com, Linus <linus@example.com>'],
    );
    assert.equal(await detail(first, 'Date').locator('time').getAttribute('datetime'), '2026-11-24T09:11:12.000Z');
    // The text part exactly as sent, markup included as text: nothing of it became an element.
    const textPart = first.locator('pre.email__text');
    assert.equal(await textPart.textContent(), text);
    assert.equal(await textPart.locator('*').count(), 0);
    assert.equal(await page.evaluate<string>("getComputedStyle(document.querySelector('pre.email__text')).whiteSpace"), 'pre-wrap', 'its line breaks and spaces kept');

    // The HTML part: not there until asked for, then in a frame with every sandbox restriction.
    assert.equal(await page.locator('iframe').count(), 0);
    const toggle = first.getByRole('button', { name: 'Show the HTML part' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    const frameElement = first.locator('iframe');
    await frameElement.waitFor();
    assert.equal(await frameElement.getAttribute('sandbox'), '');
    assert.equal(await frameElement.getAttribute('srcdoc'), html);
    assert.equal(await frameElement.getAttribute('title'), 'HTML part of “Order 1042 <arrived> damaged”');
    assert.equal(await first.getByRole('button', { name: 'Hide the HTML part' }).getAttribute('aria-expanded'), 'true');
    const frame = first.frameLocator('iframe');
    assert.equal(await frame.locator('#greeting').textContent(), 'Hello, the box was crushed.');
    assert.equal(await frame.locator('b').count(), 1);
    // Chromium leaves a sandboxed frame (its own process) blank in full-page pictures: the frame gets a picture of its own.
    await frameElement.screenshot({ path: `${ARTIFACTS_DIR}dashboard-case-email-html-part.png` });
    assert.equal(await frame.locator('#script-ran').count(), 0, 'the mail’s script did not run');
    assert.notEqual(await page.title(), 'pwned');
    const refusals = () => Object.entries(REFUSED_IN_FRAME).filter(([, pattern]) => pageProblems(page).some((p) => pattern.test(p))).map(([what]) => what);
    for (let i = 0; i < 100 && refusals().length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(refusals(), ['script', 'inlineStyle', 'remoteImage'], pageProblems(page).join('\n'));
    assert.equal(tracker.hits(), 0, 'the remote image was not requested');

    // The attachment: its facts, and a download (fetched with the admin token) of exactly its bytes.
    const item = first.getByRole('listitem').filter({ hasText: 'damage-report.pdf' });
    assert.equal(await item.locator('.attachment__meta').textContent(), 'application/pdf · 2.9 KiB');
    assert.equal(await item.locator('.attachment__hash code').textContent(), sha256(pdf));
    assert.equal(attachment.sha256, sha256(pdf));
    const downloading = page.waitForEvent('download');
    await item.getByRole('button', { name: 'Download damage-report.pdf' }).click();
    const saved = await downloading;
    assert.equal(saved.suggestedFilename(), 'damage-report.pdf');
    assert.ok((await readFile((await saved.path())!)).equals(pdf), 'the saved file holds the attachment’s bytes');

    // The reply, from its email_received event; the timeline points to the thread instead of repeating it.
    const reply = messages.nth(1);
    assert.equal(await reply.getByRole('heading', { level: 3 }).textContent(), 'Re: Order 1042');
    assert.deepEqual([await detail(reply, 'From').textContent(), await detail(reply, 'Cc').textContent(), await detail(reply, 'Date').textContent()], ['Ada <ada@example.com>', 'None', 'Not given']);
    const received = (await timeline(t, w, caseId!)).find((e) => e.type === 'email_received');
    assert.equal(await reply.locator('pre.email__text').textContent(), received.text);
    assert.equal(await reply.getByRole('button', { name: 'Show the HTML part' }).count(), 0, 'a text-only reply has no HTML part');
    const event = page.locator('.timeline__event', { hasText: 'Email received' });
    assert.match((await event.textContent()) ?? '', /Email receivedby Incoming email.*From Ada <ada@example\.com>: Re: Order 1042\. The message is shown in the email thread\.$/);
    assert.equal(await event.locator('.timeline__details').count(), 0);
    await checkAtEachWidth(page, 'case-email-thread');

    assert.deepEqual(pageProblems(page).filter((p) => !refusedInFrame(p)), [], 'console errors, uncaught exceptions or CSP violations');
    await context.close();
  });
});
