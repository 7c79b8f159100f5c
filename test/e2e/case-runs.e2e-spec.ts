/**
 * Run traces of real cases (GET /api/admin/v1/cases/{id}/runs): every step a run executed, at
 * its JSON Pointer in the definition, with its outcome, tries and HTTP status, a retried call
 * as one entry, errors with secret values masked; pages past 100 runs; 404 and 401.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCase, EMAIL, givenAutomation, ofType, patchStatus, receiverFor, timelineOf, waitForRun, waitForSettled } from '../support/automation-helpers.js';
import { DocumentedApi } from '../support/openapi-conformance.js';
import { createOrganization } from '../support/scenario.js';
import { closeDb, type TestApp, startTestApp } from '../support/test-app.js';

const CRM_KEY = 'crm-key-7f3a9c21e5';

interface TracedStep {
  path: string;
  type: string;
  outcome: string;
  started_at: string;
  finished_at: string;
  attempts: number;
  http_status: number | null;
  error: string | null;
}

interface CaseRun {
  id: number;
  status_at_start: string;
  workflow_version: number;
  state: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  steps: TracedStep[];
  steps_omitted: number;
}

const brief = (step: TracedStep) => [step.path, step.type, step.outcome, step.attempts, step.http_status];

describe('run traces of real cases', () => {
  let t: TestApp;
  let api: DocumentedApi;
  before(async () => {
    t = await startTestApp();
    api = new DocumentedApi(t, (await t.request('GET', '/openapi.json')).body);
  });
  after(async () => { await t.close(); await closeDb(); });

  const runsOf = (token: string, caseId: number, query = '') => t.request('GET', `/api/admin/v1/cases/${caseId}/runs${query}`, { token });

  it('lists every step of each run at its path, a retried call once with its tries, a failing step with its error and no secret', async (test) => {
    // The first call is refused, its retry accepted; the call of Triage is always refused.
    const receiver = await receiverFor(test, (n, request) => (request.url.startsWith('/down') ? { status: 503 } : n === 1 ? { status: 500 } : { status: 200, body: { ok: true } }));
    const w = await givenAutomation(t, {
      Open: [
        { if: { field: 'attributes.priority', equals: 1 }, then: [{ set_attributes: { queue: 'vip' } }], else: [{ set_attributes: { queue: 'standard' } }] },
        { http_request: { method: 'POST', url: `${receiver.url}/hooks?key={{ secrets.CRM_KEY }}`, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' }, body: { key: '{{ secrets.CRM_KEY }}' }, retries: 2 } },
        { set_status: 'Triage' },
      ],
      Triage: [{ http_request: { method: 'PUT', url: `${receiver.url}/down?key={{ secrets.CRM_KEY }}`, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' }, retries: 0 } }],
    });
    const stored = await t.request('PUT', '/api/admin/v1/secrets/CRM_KEY', { token: w.org.adminToken, body: { value: CRM_KEY } });
    assert.equal(stored.status, 200, stored.text);
    const id = await createCase(w, { attributes: { customer_email: EMAIL, priority: 1 } });
    await waitForSettled(id, 'Error');
    assert.equal(receiver.requests.length, 3);
    assert.equal(receiver.requests[0]!.headers.authorization, `Bearer ${CRM_KEY}`, 'the secret went out');

    // Checked against the OpenAPI document's schemas (Run, RunStep) on the way.
    const res = await api.call('get', '/api/admin/v1/cases/{caseId}/runs', { token: w.org.adminToken, params: { caseId: id } });
    assert.equal(res.status, 200, res.text);
    assert.ok(!res.text.includes(CRM_KEY) && !res.text.includes(encodeURIComponent(CRM_KEY)), `the answer shows the secret: ${res.text}`);
    assert.equal(res.body.next_cursor, null);
    const runs: CaseRun[] = res.body.runs;
    assert.deepEqual(runs.map((r) => [r.status_at_start, r.state, r.workflow_version, r.steps_omitted]), [['Open', 'succeeded', 1, 0], ['Triage', 'failed', 1, 0]]);
    const [open, triage] = runs as [CaseRun, CaseRun];
    assert.deepEqual(open.steps.map(brief), [
      ['/automations/Open/0', 'if', 'then', 1, null],
      ['/automations/Open/0/then/0', 'set_attributes', 'change', 1, null],
      ['/automations/Open/1', 'http_request', 'sent', 2, 200],
      ['/automations/Open/2', 'set_status', 'move', 1, null],
    ]);
    assert.deepEqual(open.steps.map((s) => s.error), [null, null, null, null]);
    assert.equal(open.error, null);
    const call = open.steps[2]!;
    // One entry for both tries: it started with the first, before its retry was scheduled, and ended with the second, after it.
    const [retry, ...more] = ofType(await timelineOf(w, id), 'http_request_retry');
    assert.equal(more.length, 0);
    assert.ok(Date.parse(call.started_at) <= Date.parse(retry!.at) && Date.parse(call.finished_at) >= Date.parse(retry!.retry_at), `the call's entry spans its two tries: ${JSON.stringify(call)}, ${JSON.stringify(retry)}`);
    for (const step of open.steps) assert.ok(step.started_at <= step.finished_at, JSON.stringify(step));

    const refused = `http_request: PUT ${receiver.url}/down answered 503 (after 0 retries)`;
    assert.deepEqual(triage.steps.map(brief), [['/automations/Triage/0', 'http_request', 'error', 1, 503]]);
    assert.equal(triage.steps[0]!.error, refused);
    assert.equal(triage.error, refused);
    assert.ok(triage.started_at && triage.finished_at);
  });

  it('pages past 100 runs with a cursor, oldest first, and refuses a cursor it did not make', async () => {
    // Each move to Triage (again) starts a run, which waits; the next move supersedes it.
    const w = await givenAutomation(t, { Triage: [{ wait: { seconds: 3600 } }] });
    const id = await createCase(w);
    for (let move = 0; move < 102; move++) assert.equal((await patchStatus(w, id, 'Triage')).status, 200);
    await waitForRun(id, 'Triage', 'waiting');

    const first = await runsOf(w.org.adminToken, id);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.runs.length, 100);
    assert.equal(typeof first.body.next_cursor, 'string');
    const second = await runsOf(w.org.adminToken, id, `?after=${encodeURIComponent(first.body.next_cursor)}`);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.runs.length, 2);
    assert.equal(second.body.next_cursor, null);
    const ids = [...first.body.runs, ...second.body.runs].map((r: CaseRun) => r.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'oldest first');
    assert.equal(new Set(ids).size, 102);
    const states = [...first.body.runs, ...second.body.runs].map((r: CaseRun) => r.state);
    assert.deepEqual(new Set(states.slice(0, -1)), new Set(['superseded']));

    // Smaller pages walk the same runs.
    const walked: number[] = [];
    let after: string | null = null;
    do {
      const page = await runsOf(w.org.adminToken, id, `?limit=40${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      assert.equal(page.status, 200, page.text);
      walked.push(...page.body.runs.map((r: CaseRun) => r.id));
      after = page.body.next_cursor;
    } while (after);
    assert.deepEqual(walked, ids);

    for (const query of ['?after=bogus', '?limit=0', '?limit=201', '?cursor=x']) {
      const refused = await runsOf(w.org.adminToken, id, query);
      assert.equal(refused.status, 422, `${query}: ${refused.text}`);
      assert.equal(typeof refused.body.error, 'string');
    }
  });

  it('answers 404 for an unknown case or one of another organization, 401 without an admin token', async () => {
    const w = await givenAutomation(t, { Open: [{ set_attributes: { queue: 'standard' } }] });
    const id = await createCase(w);
    await waitForSettled(id, 'Open');
    const other = await createOrganization(t);

    for (const [token, caseId] of [[other.adminToken, id], [w.org.adminToken, 999_999_999]] as const) {
      const res = await runsOf(token, caseId);
      assert.equal(res.status, 404, res.text);
      assert.equal(typeof res.body.error, 'string');
    }
    const anonymous = await t.request('GET', `/api/admin/v1/cases/${id}/runs`);
    assert.equal(anonymous.status, 401, anonymous.text);
    const withApiToken = await runsOf(w.apiToken, id);
    assert.equal(withApiToken.status, 401, withApiToken.text);

    const own = await runsOf(w.org.adminToken, id);
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(own.body.runs.map((r: CaseRun) => r.steps.map(brief)), [[['/automations/Open/0', 'set_attributes', 'change', 1, null]]]);
  });
});
