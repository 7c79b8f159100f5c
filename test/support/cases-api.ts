/** Fixtures and assertions shared by the cases API end-to-end specs. */
import assert from 'node:assert/strict';
import { createOrganization, createToken, createWorkflow, type DirectWorkflow, type Organization } from './scenario.js';
import { db, type InjectResult, type TestApp } from './test-app.js';

export const CASE_KEYS = ['attributes', 'created_at', 'id', 'mode', 'outcome', 'status', 'subject', 'updated_at', 'workflow_id'];
export const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A direct workflow without automation (no run ever moves a case behind the test's back). */
export function statusDefinition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Billing disputes',
    case_source: 'direct',
    sensitive_data: false,
    statuses: ['Triage', 'Waiting on customer'],
    default_outcome: 'Handled',
    attributes: {},
    automations: {},
    ...overrides,
  };
}

export interface CasesFixture extends DirectWorkflow {
  t: TestApp;
  apiTokenId: number;
}

/** A fresh organization with an API token and one published workflow. */
export async function givenCasesWorkflow(t: TestApp, definition = statusDefinition()): Promise<CasesFixture> {
  const org = await createOrganization(t);
  const token = await createToken(t, org, 'api');
  const workflowId = await createWorkflow(t, org, definition);
  return { t, org, apiToken: token.secret, apiTokenId: token.id, workflowId, casesPath: `/api/external/v1/workflows/${workflowId}/cases` };
}

/** Another published workflow in the fixture's organization, reached with the same token. */
export async function anotherWorkflow(f: CasesFixture, definition = statusDefinition()): Promise<CasesFixture> {
  const workflowId = await createWorkflow(f.t, f.org, definition);
  return { ...f, workflowId, casesPath: `/api/external/v1/workflows/${workflowId}/cases` };
}

export function postCase(f: CasesFixture, body: unknown = {}, headers?: Record<string, string>): Promise<InjectResult> {
  return f.t.request('POST', f.casesPath, { token: f.apiToken, body, headers });
}

export function postRaw(f: CasesFixture, rawBody: string): Promise<InjectResult> {
  return f.t.request('POST', f.casesPath, { token: f.apiToken, rawBody });
}

export function getCase(f: CasesFixture, caseId: number): Promise<InjectResult> {
  return f.t.request('GET', `${f.casesPath}/${caseId}`, { token: f.apiToken });
}

export function patchCase(f: CasesFixture, caseId: number, body: unknown): Promise<InjectResult> {
  return f.t.request('PATCH', `${f.casesPath}/${caseId}`, { token: f.apiToken, body });
}

/** Creates a case and returns its id; fails the test unless the answer is 201. */
export async function createdCaseId(f: CasesFixture, body: unknown = {}): Promise<number> {
  const res = await postCase(f, body);
  assert.equal(res.status, 201, res.text);
  return res.body.case.id;
}

export async function caseCount(workflowId: number): Promise<number> {
  const { rows } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM cases WHERE workflow_id = $1', [workflowId]);
  return rows[0]!.n;
}

export async function storedCase(caseId: number): Promise<{ status: string; outcome: string | null; mode: string; source: string }> {
  const { rows } = await db().query('SELECT status, outcome, mode, source FROM cases WHERE id = $1', [caseId]);
  assert.equal(rows.length, 1, `case ${caseId} is stored`);
  return rows[0];
}

/** Sends a request that must be refused with `status` and asserts the workflow's case count did not change. */
export async function assertNothingCreated(workflowId: number, status: number, send: () => Promise<InjectResult>): Promise<InjectResult> {
  const before = await caseCount(workflowId);
  const res = await send();
  assert.equal(res.status, status, res.text);
  assertErrorBody(res);
  assert.equal(await caseCount(workflowId), before, 'no case was created');
  return res;
}

export function assertErrorBody(res: InjectResult): void {
  assert.equal(typeof res.body?.error, 'string', `error body: ${res.text}`);
  assert.notEqual(res.body.error, '');
}

/** A 422 `attributes_validation_failed` body whose problems sit at exactly these JSON Pointer paths. */
export function assertValidationPaths(res: InjectResult, paths: string[]): void {
  assert.equal(res.status, 422, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['error', 'validation_errors']);
  assert.equal(res.body.error, 'attributes_validation_failed');
  assert.deepEqual([...new Set(res.body.validation_errors.map((p: { path: string }) => p.path))].sort(), [...paths].sort());
  for (const problem of res.body.validation_errors) {
    assert.deepEqual(Object.keys(problem).sort(), ['error', 'path']);
    assert.equal(typeof problem.error, 'string');
  }
}

/** `{"case": {...}}` with exactly the contract's fields and well-formed timestamps; returns the case. */
export function assertCaseResponse(res: InjectResult, status: number): Record<string, any> {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(Object.keys(res.body), ['case']);
  const c = res.body.case;
  assert.deepEqual(Object.keys(c).sort(), CASE_KEYS);
  assert.ok(Number.isSafeInteger(c.id) && c.id > 0, `id ${c.id}`);
  assert.ok(Number.isSafeInteger(c.workflow_id), `workflow_id ${c.workflow_id}`);
  assert.equal(typeof c.subject, 'string');
  assert.ok(c.mode === 'live' || c.mode === 'test', `mode ${c.mode}`);
  assert.ok(c.attributes !== null && typeof c.attributes === 'object' && !Array.isArray(c.attributes), 'attributes is an object');
  assert.match(c.created_at, ISO_UTC);
  assert.match(c.updated_at, ISO_UTC);
  return c;
}

export interface TimelineEntry {
  id: number;
  type: string;
  by: { type: string; id?: number };
  at: string;
  [field: string]: unknown;
}

export async function timeline(t: TestApp, org: Organization, caseId: number): Promise<TimelineEntry[]> {
  return wholeTimeline(t, org.adminToken, caseId);
}

/** Every event of a case's timeline, oldest first, page after page. */
export async function wholeTimeline<E = TimelineEntry>(r: Pick<TestApp, 'request'>, adminToken: string, caseId: number): Promise<E[]> {
  const events: E[] = [];
  let cursor: string | null = null;
  do {
    const res: InjectResult = await r.request('GET', `/api/admin/v1/cases/${caseId}/timeline${cursor ? `?cursor=${cursor}` : ''}`, { token: adminToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['events', 'next_cursor']);
    events.push(...res.body.events);
    cursor = res.body.next_cursor;
  } while (cursor);
  return events;
}

export async function statusChanges(t: TestApp, org: Organization, caseId: number): Promise<TimelineEntry[]> {
  return (await timeline(t, org, caseId)).filter((e) => e.type === 'status_changed');
}
