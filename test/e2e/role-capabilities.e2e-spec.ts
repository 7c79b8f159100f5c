/**
 * The role × capability matrix of docs/security.md, checked against the running service: each
 * row of the table is one test, which tries its capability as every caller the table has a
 * column for and compares what happened with the row's cell. A capability reached indirectly
 * (a test run's step reading a secret) is tried the way an attacker would: a request to a
 * receiver of one's own, looking at what arrives. A row without a probe here, or a probe
 * without its row, fails, so the table and the service cannot drift apart.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TicketExtensionModule } from '../../examples/ticket-extension/src/ticket-extension.module.js';
import { eventually, type Receiver, startReceiver } from '../support/automation-helpers.js';
import { givenMember, givenOwnedOrganization, type PeopleOrganization, type Session } from '../support/people-helpers.js';
import { createToken, sampleDefinition } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

// Compiled to build/test/e2e/: the repository is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const SPEC = 'role-capabilities.e2e-spec.ts';
const COLUMNS = ['viewer', 'agent', 'editor', 'admin', 'owner', 'admin token', 'API token'] as const;
type Column = (typeof COLUMNS)[number];
/** `yes`: it can; `no`: refused (403, or 401 for a token the admin API does not take); `stand-in`: it runs, but gets `[secret NAME]` instead of the secret. */
type Cell = 'yes' | 'no' | 'stand-in';

interface MatrixRow {
  capability: string;
  cells: Record<Column, Cell>;
  proof: string;
}

/** The table under `## Roles and capabilities`: capability, one cell per column, how, proof. */
function matrix(): MatrixRow[] {
  const doc = readFileSync(join(root, 'docs/security.md'), 'utf8');
  const start = doc.indexOf('## Roles and capabilities');
  assert.ok(start >= 0, 'docs/security.md has a "## Roles and capabilities" section');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const lines = section.split('\n').filter((line) => line.startsWith('| '));
  const header = lines[0]!.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim());
  assert.deepEqual(header, ['capability', ...COLUMNS, 'how', 'proof (test file › test name)']);
  return lines.slice(2).map((line) => {
    const cells = line.replace(/^\|\s*|\s*\|$/g, '').split(' | ').map((cell) => cell.trim());
    assert.equal(cells.length, header.length, `a row of ${header.length} cells: ${line}`);
    const capability = cells[0]!;
    const values = Object.fromEntries(COLUMNS.map((column, i) => [column, cells[i + 1] as Cell])) as Record<Column, Cell>;
    for (const column of COLUMNS) assert.ok(['yes', 'no', 'stand-in'].includes(values[column]), `${capability}, ${column}: "${values[column]}" is not yes, no or stand-in`);
    return { capability, cells: values, proof: cells.at(-1)! };
  });
}

/** A caller of one column: how it sends an admin request, and how the audit log names it. */
interface Caller {
  column: Column;
  request(method: string, path: string, body?: unknown): Promise<InjectResult>;
  actor: { type: string; id?: string };
}

/** What the callers' probes share: the organization, its workflows, its secret and a receiver of the caller's own. */
interface World {
  t: TestApp;
  org: PeopleOrganization;
  workflowId: number;
  /** The organization's API token, to open the cases a probe works on. */
  apiToken: string;
  /** A case of the workflow, for the probes that work, comment on and watch one. */
  caseId: number;
  receiver: Receiver;
  sink: SmtpSink;
}

const SECRET_VALUE = 'matrix-secret-"q\\uo-te"-7d1c';
const CASE = { customer_email: 'ada@example.com' };

/** `yes` when every answer is a 2xx, `no` when each is a refusal with a JSON error; anything else is no answer the matrix knows. */
function reached(column: Column, ...answers: InjectResult[]): Cell {
  if (answers.every((res) => res.status >= 200 && res.status < 300)) return 'yes';
  const refusal = column === 'API token' ? [401, 403] : [403];
  if (answers.every((res) => refusal.includes(res.status) && typeof res.body?.error === 'string')) return 'no';
  throw new Error(`${column}: ${answers.map((res) => `${res.status} ${res.text.slice(0, 200)}`).join('; ')}`);
}

/** The workflow with one step that calls the caller's receiver carrying the secret: what the receiver gets says whether the step read it. */
async function secretReached(w: World, as: Caller, step: Record<string, unknown>, attributes: Record<string, unknown> = {}): Promise<Cell> {
  const workflowId = await workflowWith(w, { Open: [step] }, attributes);
  const before = w.receiver.requests.length;
  const res = await as.request('POST', `/api/admin/v1/workflows/${workflowId}/test_runs`, { send_requests: true, attributes: CASE });
  assert.ok(!res.text.includes(SECRET_VALUE) && !res.text.includes(JSON.stringify(SECRET_VALUE).slice(1, -1)), `${as.column}: the answer shows the secret: ${res.text}`);
  if (reached(as.column, res) === 'no') return 'no';
  const sent = w.receiver.requests.slice(before);
  assert.equal(sent.length, 1, `${as.column}: ${res.text}`);
  const authorization = sent[0]!.headers.authorization;
  if (authorization === `Bearer ${SECRET_VALUE}`) return 'yes';
  assert.equal(authorization, 'Bearer [secret MATRIX_KEY]', `${as.column}: the receiver got neither the secret nor its stand-in`);
  return 'stand-in';
}

/** A new case of the world's workflow, opened through the cases API. */
async function newCase(w: World): Promise<number> {
  const created = await w.t.request('POST', `/api/external/v1/workflows/${w.workflowId}/cases`, { token: w.apiToken, body: { attributes: CASE } });
  assert.equal(created.status, 201, created.text);
  return created.body.case.id;
}

async function workflowWith(w: World, automations: Record<string, unknown[]>, attributes: Record<string, unknown> = {}): Promise<number> {
  const created = await w.t.request('POST', '/api/admin/v1/workflows', { token: w.org.adminToken, body: sampleDefinition({ automations, attributes: { ...(sampleDefinition().attributes as object), ...attributes } }) });
  assert.equal(created.status, 201, created.text);
  return created.body.workflow.id;
}

/** Each capability of the table, tried as one caller. */
const PROBES: Record<string, (w: World, as: Caller) => Promise<Cell>> = {
  'read cases, their timelines and runs, usage, the cases report and the SLA report': async (w, as) =>
    reached(
      as.column,
      await as.request('GET', '/api/admin/v1/cases'),
      await as.request('GET', '/api/admin/v1/usage'),
      await as.request('GET', '/api/admin/v1/reports/cases'),
      await as.request('GET', '/api/admin/v1/reports/sla?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z'),
    ),
  'merge cases': async (w, as) => reached(as.column, await as.request('POST', `/api/admin/v1/cases/${await newCase(w)}/merge`, { into: await newCase(w) })),
  'link cases': async (w, as) => {
    const [a, b] = [await newCase(w), await newCase(w)];
    const body = { case_id: b, type: 'relates' };
    const made = await as.request('POST', `/api/admin/v1/cases/${a}/links`, body);
    const link = made.status === 201 ? made.body.link : (await w.t.request('POST', `/api/admin/v1/cases/${a}/links`, { token: w.org.adminToken, body })).body.link;
    return reached(as.column, made, await as.request('DELETE', `/api/admin/v1/cases/${a}/links/${link.id}`));
  },
  'work cases: assign, change priority, status and attributes': async (w, as) =>
    reached(as.column, await as.request('PATCH', `/api/admin/v1/cases/${w.caseId}`, { priority: 'high', status: 'Triage', attributes: { note: null } })),
  'read teams, and workflows\' statuses and attribute schemas': async (w, as) => {
    const names = await as.request('GET', '/api/admin/v1/workflow_names');
    const teams = await as.request('GET', '/api/admin/v1/teams');
    // A viewer still reads the workflows' names and statuses, never their attribute declarations.
    if (names.status === 200 && names.body.workflows.some((workflow: { attributes?: unknown }) => workflow.attributes !== undefined)) return reached(as.column, teams);
    assert.equal(reached(as.column, teams), 'no', `${as.column}: reads teams but no attribute schema`);
    return 'no';
  },
  'manage teams': async (w, as) => reached(as.column, await as.request('POST', '/api/admin/v1/teams', { name: `Matrix ${as.column} ${Math.random()}`, member_ids: [] })),
  'search cases by text in the admin list (q), with where each case matched': async (w, as) => reached(as.column, await as.request('GET', '/api/admin/v1/cases?q=refund%20ORD-42')),
  'read a case\'s comments, internal notes included': async (w, as) => reached(as.column, await as.request('GET', `/api/admin/v1/cases/${w.caseId}/comments`)),
  'read workflows, their versions and drafts': async (w, as) =>
    reached(as.column, await as.request('GET', `/api/admin/v1/workflows/${w.workflowId}`), await as.request('GET', `/api/admin/v1/workflows/${w.workflowId}/versions`)),
  'edit a workflow\'s draft': async (w, as) => reached(as.column, await as.request('PUT', `/api/admin/v1/workflows/${w.workflowId}`, sampleDefinition())),
  'restore a published version into the draft (nothing is published)': async (w, as) => reached(as.column, await as.request('POST', `/api/admin/v1/workflows/${w.workflowId}/versions/1/restore`)),
  'test-run a draft without sending its requests': async (w, as) => reached(as.column, await as.request('POST', `/api/admin/v1/workflows/${w.workflowId}/test_runs`, { status: 'Triage', attributes: CASE })),
  'test-run a draft sending its requests, each such run audited as workflow.test_run_sent': async (w, as) => {
    const newest = async () => (await w.t.request('GET', '/api/admin/v1/audit?action=workflow.test_run_sent&limit=1', { token: w.org.adminToken })).body.entries[0] as { id: string; actor: { type: string; id: string } } | undefined;
    const before = await newest();
    const cell = reached(as.column, await as.request('POST', `/api/admin/v1/workflows/${w.workflowId}/test_runs`, { status: 'Triage', send_requests: true, attributes: CASE }));
    // A refused run never reached the handler; nothing of it can be audited.
    if (cell === 'no') return cell;
    // The log lists an entry once no transaction that began before it is still running.
    const entry = await eventually(`${as.column}: the run's audit entry`, async () => {
      const found = await newest();
      return found && found.id !== before?.id ? found : undefined;
    });
    assert.equal(entry.actor.type, as.actor.type);
    if (as.actor.id) assert.equal(entry.actor.id, as.actor.id);
    return cell;
  },
  'a test run\'s http_request step reads an organization secret': (w, as) =>
    secretReached(w, as, { http_request: { method: 'POST', url: `${w.receiver.url}/hooks`, headers: { authorization: 'Bearer {{ secrets.MATRIX_KEY }}' }, body: { key: '{{ secrets.MATRIX_KEY }}' }, retries: 0 } }),
  'a test run\'s extension step reads an organization secret (open_ticket\'s token_secret)': (w, as) =>
    secretReached(w, as, { open_ticket: { url: `${w.receiver.url}/tickets`, title: 'T', token_secret: 'MATRIX_KEY', retries: 0 } }, { ticket_id: { type: 'string' } }),
  'publish or unpublish a workflow (its real runs read secrets)': async (w, as) => reached(as.column, await as.request('POST', `/api/admin/v1/workflows/${w.workflowId}/publish`)),
  'list, set or delete organization secrets (no answer ever shows a value)': async (w, as) =>
    reached(as.column, await as.request('GET', '/api/admin/v1/secrets'), await as.request('PUT', '/api/admin/v1/secrets/MATRIX_OTHER', { value: 'other-value' })),
  'read, set or delete business-hours calendars and SLA policies': async (w, as) =>
    reached(
      as.column,
      await as.request('PUT', '/api/admin/v1/calendars/Matrix', { time_zone: 'UTC', hours: '24x7' }),
      await as.request('GET', '/api/admin/v1/calendars'),
      await as.request('PUT', `/api/admin/v1/workflows/${w.workflowId}/sla`, { calendar: 'Matrix', targets: { normal: { resolution: 'PT8H' } } }),
    ),
  'read digests and subscriptions': async (w, as) => reached(as.column, await as.request('GET', '/api/admin/v1/digests'), await as.request('GET', '/api/admin/v1/subscriptions')),
  'create, change, send or delete a digest': async (w, as) =>
    reached(as.column, await as.request('POST', '/api/admin/v1/digests', { schedule: 'daily', hour_utc: 6, recipients: ['ops@acme.example'] })),
  'manage webhook URLs, inbound addresses and forms': async (w, as) => reached(as.column, await as.request('GET', `/api/admin/v1/workflows/${w.workflowId}/webhook`)),
  'manage admin and API tokens': async (w, as) => reached(as.column, await as.request('GET', '/api/admin/v1/tokens')),
  'read the audit log': async (w, as) => reached(as.column, await as.request('GET', '/api/admin/v1/audit')),
  'save views of the case list': async (w, as) =>
    // An admin token's views are shared: it has no person to keep a private one.
    reached(as.column, await as.request('POST', '/api/admin/v1/views', { name: `Open ${as.column}`, filters: { status: 'Open' }, shared: as.column === 'admin token' })),
  'share a view of the case list with everyone of the organization': async (w, as) =>
    reached(as.column, await as.request('POST', '/api/admin/v1/views', { name: `Shared ${as.column}`, filters: {}, shared: true })),
  'bulk-change cases': async (w, as) => reached(as.column, await as.request('POST', '/api/admin/v1/cases/bulk', { case_ids: [987654321], change: { status: 'Triage' } })),
  'export cases as CSV': async (w, as) => reached(as.column, await as.request('GET', '/api/admin/v1/cases/export.csv?status=Nobody')),
  'manage people and single sign-on, change retention': async (w, as) => reached(as.column, await as.request('GET', '/api/admin/v1/users')),
  'comment on a case, internal or public (mails the requester)': async (w, as) =>
    reached(as.column, await as.request('POST', `/api/admin/v1/cases/${w.caseId}/comments`, { body: 'matrix note', visibility: 'internal' })),
  'watch a case, set one\'s notifications': async (w, as) => {
    const answers = [await as.request('PUT', `/api/admin/v1/cases/${w.caseId}/watchers/me`), await as.request('PUT', '/api/admin/v1/me/notifications', { assigned: true, mentioned: true, watched: true })];
    // An admin token may use the routes (its role allows them) but is no person to watch or notify: 422.
    if (as.column === 'admin token' && answers.every((res) => res.status === 422 && typeof res.body?.error === 'string')) return 'no';
    return reached(as.column, ...answers);
  },
};

describe('the role × capability matrix of docs/security.md', () => {
  const rows = matrix();
  let w: World;
  const callers = new Map<Column, Caller>();

  before(async () => {
    const sink = await startSmtpSink();
    const t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' }, extensions: [TicketExtensionModule] });
    const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    const org = await givenOwnedOrganization(t, sink, origin);
    const stored = await t.request('PUT', '/api/admin/v1/secrets/MATRIX_KEY', { token: org.adminToken, body: { value: SECRET_VALUE } });
    assert.equal(stored.status, 200, stored.text);
    const created = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition() });
    assert.equal(created.status, 201, created.text);
    const workflowId: number = created.body.workflow.id;
    assert.equal((await t.request('POST', `/api/admin/v1/workflows/${workflowId}/publish`, { token: org.adminToken })).status, 200);
    assert.equal((await t.request('POST', `/api/admin/v1/workflows/${workflowId}/webhook`, { token: org.adminToken })).status, 201);
    const apiToken = (await createToken(t, { id: org.id, adminToken: org.adminToken }, 'api')).secret;
    const opened = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: CASE } });
    assert.equal(opened.status, 201, opened.text);
    w = { t, org, workflowId, apiToken, caseId: opened.body.case.id, receiver: await startReceiver(() => ({ status: 201, body: { id: 'T-1' } })), sink };
    const sessions: [Column, Session][] = [['owner', org.owner]];
    for (const role of ['viewer', 'agent', 'editor', 'admin'] as const) sessions.push([role, await givenMember(t, sink, org, role, origin)]);
    for (const [column, session] of sessions) {
      callers.set(column, { column, actor: { type: 'user', id: String(session.userId) }, request: (method, path, body) => t.request(method, path, { body, headers: { cookie: session.cookie, origin } }) });
    }
    callers.set('admin token', { column: 'admin token', actor: { type: 'token' }, request: (method, path, body) => t.request(method, path, { body, token: org.adminToken }) });
    callers.set('API token', { column: 'API token', actor: { type: 'token' }, request: (method, path, body) => t.request(method, path, { body, token: w.apiToken }) });
  });
  after(async () => {
    await w?.receiver.close();
    await w?.t.close();
    await w?.sink.close();
    await closeDb();
  });

  it('has a probe for every row and a row for every probe, each row naming its own test', () => {
    assert.deepEqual(rows.map((row) => row.capability).sort(), Object.keys(PROBES).sort());
    for (const row of rows) assert.ok(row.proof.includes(`\`${SPEC}\` › "${row.capability}"`), `the row "${row.capability}" names its test in ${SPEC}`);
  });

  for (const row of rows) {
    it(row.capability, async () => {
      const probe = PROBES[row.capability];
      assert.ok(probe, `no probe for "${row.capability}"`);
      const seen: Record<string, Cell> = {};
      for (const column of COLUMNS) seen[column] = await probe(w, callers.get(column)!);
      assert.deepEqual(seen, row.cells);
    });
  }
});
