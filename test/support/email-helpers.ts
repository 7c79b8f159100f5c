import assert from 'node:assert/strict';
import { SmtpListener } from '../../src/modules/email/infrastructure/smtp-listener.js';
import { wholeTimeline } from './cases-api.js';
import { createOrganization, createToken, createWorkflow, type Organization } from './scenario.js';
import { deliver, type DeliveryResult, type MailDelivery } from './smtp-client.js';
import { db, startTestApp, type TestApp } from './test-app.js';

/** The test app with its SMTP listener on a free port. */
export interface MailApp extends TestApp {
  smtpPort: number;
}

export async function startMailApp(env: Record<string, string> = {}): Promise<MailApp> {
  const t = await startTestApp({ env });
  return Object.assign(t, { smtpPort: await t.app.get(SmtpListener).listen(0) });
}

/** An email workflow with no declared attributes (so the `email` attribute is kept as undeclared). */
export function emailDefinition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Support inbox', case_source: 'email', sensitive_data: false, attributes: {}, automations: {}, ...overrides };
}

export interface EmailWorkflow {
  org: Organization;
  apiToken: string;
  workflowId: number;
  address: string;
}

/** An organization with an API token and a published email workflow whose address was generated. */
export async function givenEmailWorkflow(t: TestApp, definition = emailDefinition(), org?: Organization): Promise<EmailWorkflow> {
  const owner = org ?? (await createOrganization(t));
  const { secret } = await createToken(t, owner, 'api');
  const workflowId = await createWorkflow(t, owner, definition);
  const res = await t.request('POST', `/api/admin/v1/workflows/${workflowId}/email_address`, { token: owner.adminToken });
  assert.equal(res.status, 201, res.text);
  return { org: owner, apiToken: secret, workflowId, address: res.body.email_address.address };
}

export function send(t: MailApp, delivery: Omit<MailDelivery, 'port'>): Promise<DeliveryResult> {
  return deliver({ port: t.smtpPort, ...delivery });
}

/** Delivered and accepted: 250 at every step. */
export async function sendAccepted(t: MailApp, to: string | string[], message: string | Buffer): Promise<void> {
  const result = await send(t, { to: [to].flat(), message });
  assert.deepEqual(result.rcpt.map((r) => r.code), [to].flat().map(() => 250), JSON.stringify(result));
  assert.equal(result.data?.code, 250, JSON.stringify(result));
}

/** A message as a mail client writes it: headers, a blank line, the body; CRLF line ends. */
export function mail(headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ 'MIME-Version': '1.0', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`;
}

export async function caseIdsOf(workflowId: number): Promise<number[]> {
  const { rows } = await db().query<{ id: string }>('SELECT id FROM cases WHERE workflow_id = $1 ORDER BY id', [workflowId]);
  return rows.map((row) => Number(row.id));
}

export async function adminCase(t: TestApp, w: EmailWorkflow, caseId: number): Promise<any> {
  const res = await t.request('GET', `/api/admin/v1/cases/${caseId}`, { token: w.org.adminToken });
  assert.equal(res.status, 200, res.text);
  return res.body.case;
}

export function timeline(t: TestApp, w: EmailWorkflow, caseId: number): Promise<any[]> {
  return wholeTimeline<any>(t, w.org.adminToken, caseId);
}

/** The one case a message created on the workflow. */
export async function onlyCase(t: TestApp, w: EmailWorkflow): Promise<any> {
  const ids = await caseIdsOf(w.workflowId);
  assert.equal(ids.length, 1, `cases ${ids.join(', ')}`);
  return adminCase(t, w, ids[0]!);
}
