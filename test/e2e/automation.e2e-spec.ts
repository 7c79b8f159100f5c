import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  anotherAutomation,
  assertParkedInError,
  type Automated,
  brief,
  createCase,
  EMAIL,
  eventually,
  findEvent,
  givenAutomation,
  ofType,
  patchStatus,
  readCase,
  type Receiver,
  receiverFor,
  startIsolatedApp,
  timelineOf,
  waitForRun,
  waitForSettled,
} from '../support/automation-helpers.js';
import { closeDb, db, type TestApp, startTestApp } from '../support/test-app.js';

const body = (r: Receiver, i: number): unknown => JSON.parse(r.requests[i]!.body);

describe('automation engine (in-process worker)', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  it('runs a chain: Open sets attributes from templates and moves to Triage, whose run closes the case', async () => {
    const w = await givenAutomation(t, {
      Open: [
        { set_attributes: { reference: 'REF-{{ case.id }}-{{ attributes.customer_email }}', copied_id: '{{ case.id }}', priority: 2 } },
        { set_status: 'Triage' },
      ],
      Triage: [{ close: { outcome: 'Auto-resolved' } }],
    });
    const created = await t.request('POST', w.casesPath, {
      token: w.apiToken,
      rawBody: `{"attributes":{"customer_email":"${EMAIL}","big":123456789012345678901234567890,"precise":0.1000000000000000000000001}}`,
    });
    assert.equal(created.status, 201, created.text);
    const id: number = created.body.case.id;

    const settled = await waitForSettled(id, 'Closed');
    assert.equal(settled.outcome, 'Auto-resolved');
    assert.deepEqual(settled.runs.map((r) => [r.status, r.state, r.chain_depth, r.error]), [['Open', 'succeeded', 0, null], ['Triage', 'succeeded', 1, null]]);

    const read = await readCase(w, id);
    assert.equal(read.body.case.status, 'Closed');
    assert.equal(read.body.case.outcome, 'Auto-resolved');
    const { big, precise, ...rest } = read.body.case.attributes;
    assert.deepEqual(rest, { customer_email: EMAIL, reference: `REF-${id}-${EMAIL}`, copied_id: id, priority: 2 });
    assert.equal(typeof big, 'number');
    assert.match(read.text, /"big": ?123456789012345678901234567890[,}]/, 'the big number is exact after the merge');
    assert.match(read.text, /"precise": ?0\.1000000000000000000000001[,}]/, 'the precise decimal is exact after the merge');

    const events = await timelineOf(w, id);
    assert.deepEqual(events.map(brief), [
      'created api_token Open',
      'run_started engine Open',
      'attributes_changed automation',
      'status_changed automation Open->Triage',
      'run_succeeded engine Open',
      'run_started engine Triage',
      'status_changed automation Triage->Closed',
      'run_succeeded engine Triage',
    ]);
    const [openRun, triageRun] = settled.runs;
    findEvent(events, 'run_started', { run_id: openRun!.id, status: 'Open', mode: 'live' });
    assert.deepEqual(findEvent(events, 'attributes_changed').keys.toSorted(), ['copied_id', 'priority', 'reference']);
    findEvent(events, 'status_changed', { from: 'Open', to: 'Triage', outcome: null });
    findEvent(events, 'run_started', { run_id: triageRun!.id, status: 'Triage', mode: 'live' });
    findEvent(events, 'status_changed', { from: 'Triage', to: 'Closed', outcome: 'Auto-resolved' });
  });

  it('commits a chain of automatic moves once: both runs and the case carry one transaction time', async () => {
    const w = await givenAutomation(t, {
      Open: [{ set_attributes: { priority: 2 } }, { set_status: 'Triage' }],
      Triage: [{ close: { outcome: 'Auto-resolved' } }],
    });
    const created = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: EMAIL } } });
    assert.equal(created.status, 201, created.text);
    const id: number = created.body.case.id;
    await waitForSettled(id, 'Closed');

    // now() is the transaction's start time: writes of one transaction share it, writes of two cannot.
    const { rows } = await db().query<{ times: string[] }>(
      `SELECT array_agg(DISTINCT t ORDER BY t)::text[] AS times FROM (
         SELECT finished_at AS t FROM workflow_runs WHERE case_id = $1
         UNION ALL SELECT created_at FROM workflow_runs WHERE case_id = $1 AND status = 'Triage'
         UNION ALL SELECT updated_at FROM cases WHERE id = $1) chain`,
      [id],
    );
    assert.equal(rows[0]!.times.length, 1, `the chain's writes carry several times: ${rows[0]!.times.join(', ')}`);
  });

  it('parks the case in Error on a fail step; a PATCH to a declared status recovers it and starts that status\'s run', async () => {
    const w = await givenAutomation(t, {
      Open: [{ fail: 'needs a human: {{ attributes.customer_email }}' }],
      Review: [{ set_attributes: { reviewed: true } }, { close: { outcome: 'Reviewed' } }],
    });
    const id = await createCase(w);
    await assertParkedInError(w, id, `needs a human: ${EMAIL}`);

    const toError = await patchStatus(w, id, 'Error');
    assert.equal(toError.status, 422, toError.text);
    const recovered = await patchStatus(w, id, 'Review');
    assert.equal(recovered.status, 200, recovered.text);
    assert.equal(recovered.body.case.status, 'Review');

    const settled = await waitForSettled(id, 'Closed');
    assert.equal(settled.outcome, 'Reviewed');
    assert.equal(settled.attributes.reviewed, true);
    assert.deepEqual(settled.runs.map((r) => [r.status, r.state]), [['Open', 'failed'], ['Review', 'succeeded']]);
    const events = await timelineOf(w, id);
    assert.equal(findEvent(events, 'status_changed', { from: 'Error', to: 'Review' }).by.type, 'api_token');
    findEvent(events, 'run_succeeded', { run_id: settled.runs[1]!.id, status: 'Review' });
  });

  it('branches on case.mode: a test case takes the then-branch, a live case the else-branch', async () => {
    const w = await givenAutomation(t, {
      Open: [
        { if: { field: 'case.mode', equals: 'test' }, then: [{ set_attributes: { branch: 'then' } }], else: [{ set_attributes: { branch: 'else' } }] },
        { close: {} },
      ],
    });
    const testCase = await createCase(w, { mode: 'test' });
    const liveCase = await createCase(w, { mode: 'live' });
    for (const [id, mode, branch] of [[testCase, 'test', 'then'], [liveCase, 'live', 'else']] as const) {
      const settled = await waitForSettled(id, 'Closed');
      assert.equal(settled.attributes.branch, branch, `${mode} case`);
      assert.equal(settled.outcome, 'Resolved', 'a close step without outcome takes the workflow default');
      assert.deepEqual(settled.runs.map((r) => [r.mode, r.state]), [[mode, 'succeeded']]);
    }
  });

  it('http_request sends the rendered body and headers, retries a 500 and saves the JSON answer', async (test) => {
    const answer = { ticket: { id: 991, tags: ['vip'] }, accepted: true };
    const receiver = await receiverFor(test, (n) => (n === 1 ? { status: 500, body: { error: 'busy' } } : { status: 200, body: answer }));
    const w = await givenAutomation(t, {
      Open: [
        {
          http_request: {
            method: 'POST',
            url: `${receiver.url}/hooks/{{ case.id }}`,
            headers: { 'x-case-ref': 'case-{{ case.id }}', 'x-case-id': '{{ case.id }}' },
            body: { email: '{{ attributes.customer_email }}', case_id: '{{ case.id }}', summary: 'Case {{ case.id }} ({{ case.mode }})', fixed: [1, true, null] },
            retries: 2,
            save_response_as: 'crm',
          },
        },
        { close: { outcome: 'Synced' } },
      ],
    });
    const id = await createCase(w);
    const settled = await waitForSettled(id, 'Closed');

    assert.equal(receiver.requests.length, 2);
    for (const request of receiver.requests) {
      assert.equal(request.method, 'POST');
      assert.equal(request.url, `/hooks/${id}`);
      assert.equal(request.headers['x-case-ref'], `case-${id}`);
      assert.equal(request.headers['x-case-id'], String(id));
      assert.equal(request.headers['content-type'], 'application/json');
    }
    assert.deepEqual(body(receiver, 0), { email: EMAIL, case_id: id, summary: `Case ${id} (live)`, fixed: [1, true, null] });
    assert.equal(receiver.requests[1]!.body, receiver.requests[0]!.body);

    assert.equal(settled.outcome, 'Synced');
    assert.deepEqual(settled.attributes.crm, answer);
    const events = await timelineOf(w, id);
    const retries = ofType(events, 'http_request_retry');
    assert.equal(retries.length, 1);
    assert.equal(retries[0]!.attempt, 1);
    assert.match(retries[0]!.error, /answered 500/);
    findEvent(events, 'http_request', { method: 'POST', url: `${receiver.url}/hooks/${id}`, status: 200 });
    findEvent(events, 'attributes_changed', { keys: ['crm'] });
  });

  it('http_request that keeps failing fails the run after 1 + retries attempts', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 503 }));
    const w = await givenAutomation(t, { Open: [{ http_request: { method: 'PUT', url: `${receiver.url}/always-down`, retries: 1 } }, { close: {} }] });
    const id = await createCase(w);
    const { events } = await assertParkedInError(w, id, `http_request: PUT ${receiver.url}/always-down answered 503 (after 1 retries)`);
    assert.equal(receiver.requests.length, 2);
    assert.equal(ofType(events, 'http_request_retry').length, 1);
  });

  it('wait parks the run and resumes it later: the case closes only after the wait', async () => {
    const w = await givenAutomation(t, { Open: [{ wait: { seconds: 1 } }, { close: { outcome: 'After waiting' } }] });
    const id = await createCase(w);
    const parked = await eventually('the Open run parked as waiting', async () => {
      const { rows } = await db().query(`SELECT c.status, r.state FROM cases c JOIN workflow_runs r ON r.case_id = c.id WHERE c.id = $1`, [id]);
      return rows[0]?.state === 'waiting' ? rows[0] : undefined;
    });
    assert.equal(parked.status, 'Open', 'the case is not closed while its run waits');

    const settled = await waitForSettled(id, 'Closed');
    assert.equal(settled.outcome, 'After waiting');
    assert.deepEqual(settled.runs.map((r) => [r.status, r.state]), [['Open', 'succeeded']]);
    const events = await timelineOf(w, id);
    assert.deepEqual(events.map(brief), [
      'created api_token Open',
      'run_started engine Open',
      'run_waiting engine',
      'status_changed automation Open->Closed',
      'run_succeeded engine Open',
    ]);
    const started = Date.parse(findEvent(events, 'run_started').at);
    const until = Date.parse(findEvent(events, 'run_waiting').until);
    const closed = Date.parse(findEvent(events, 'status_changed').at);
    assert.ok(until >= started + 1000, `resumes at least 1 s after the run started (started ${started}, until ${until})`);
    assert.ok(closed >= until, `the close step ran after the wait (until ${until}, closed ${closed})`);
  });

  it('a status change while a run waits supersedes that run: it never closes the case', async () => {
    const w = await givenAutomation(t, {
      Open: [{ wait: { seconds: 30 } }, { close: { outcome: 'Too late' } }],
      Triage: [{ set_attributes: { triaged: true } }],
    });
    const id = await createCase(w);
    const waiting = await waitForRun(id, 'Open', 'waiting');
    const moved = await patchStatus(w, id, 'Triage');
    assert.equal(moved.status, 200, moved.text);

    const settled = await waitForSettled(id, 'Triage');
    assert.equal(settled.outcome, null);
    assert.equal(settled.attributes.triaged, true);
    assert.deepEqual(settled.runs.map((r) => [r.id, r.status, r.state]), [[waiting.id, 'Open', 'superseded'], [settled.runs[1]!.id, 'Triage', 'succeeded']]);
    const events = await timelineOf(w, id);
    assert.deepEqual(events.map(brief), [
      'created api_token Open',
      'run_started engine Open',
      'run_waiting engine',
      'run_superseded engine Open',
      'status_changed api_token Open->Triage',
      'run_started engine Triage',
      'attributes_changed automation',
      'run_succeeded engine Triage',
    ]);
    findEvent(events, 'run_superseded', { run_id: waiting.id, status: 'Open' });
  });

  it('stops a loop of automatic moves after 25 and parks the case in Error', async () => {
    const w = await givenAutomation(t, { Open: [{ set_status: 'A' }], A: [{ set_status: 'B' }], B: [{ set_status: 'A' }] }, { statuses: ['A', 'B'] });
    const id = await createCase(w);
    const { settled, events } = await assertParkedInError(w, id, /25 automatic status moves/);
    assert.ok(settled.runs.length <= 26, `at most 26 runs, got ${settled.runs.length}`);
    assert.equal(settled.runs.length, 26, '25 automatic moves are allowed, the 26th is refused');
    assert.deepEqual(settled.runs.map((r) => r.chain_depth), settled.runs.map((_, i) => i));
    assert.ok(settled.runs.slice(0, -1).every((r) => r.state === 'succeeded'), JSON.stringify(settled.runs));
    assert.equal(events.filter((e) => e.type === 'status_changed' && e.by.type === 'automation').length, 25);
  });

  it('fails the run when set_attributes violates the schema, without changing the attributes', async () => {
    const w = await givenAutomation(t, { Open: [{ set_attributes: { priority: 'high' } }, { close: {} }] });
    const id = await createCase(w);
    const { settled, events } = await assertParkedInError(w, id, /^set_attributes: \/priority /);
    assert.deepEqual(settled.attributes, { customer_email: EMAIL });
    assert.equal(ofType(events, 'attributes_changed').length, 0);
  });

  it('fails the run when a template cannot be resolved', async () => {
    const w = await givenAutomation(t, { Open: [{ set_attributes: { note: 'hello {{ attributes.nickname }}' } }, { close: {} }] });
    const id = await createCase(w);
    const { settled } = await assertParkedInError(w, id, 'set_attributes: template {{ attributes.nickname }} does not resolve');
    assert.deepEqual(settled.attributes, { customer_email: EMAIL });
  });

  describe('usage', () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const usage = (w: Automated, query: string) => t.request('GET', `/api/admin/v1/usage${query}`, { token: w.org.adminToken });

    /** The usage report computed straight from the organization's rows. */
    async function usageFromRows(organizationId: number) {
      const { rows } = await db().query<{ workflow_id: number; mode: 'live' | 'test'; cases: number; runs: number }>(
        `SELECT workflow_id::int, mode, sum(cases)::int AS cases, sum(runs)::int AS runs FROM (
           SELECT workflow_id, mode, 1 AS cases, 0 AS runs FROM cases WHERE organization_id = $1
           UNION ALL SELECT workflow_id, mode, 0, 1 FROM workflow_runs WHERE organization_id = $1
         ) x GROUP BY workflow_id, mode`,
        [organizationId],
      );
      const zero = () => ({ cases: 0, runs: 0 });
      const report = { live: zero(), test: zero(), workflows: new Map<number, { workflow_id: number; live: ReturnType<typeof zero>; test: ReturnType<typeof zero> }>() };
      for (const row of rows) {
        if (!report.workflows.has(row.workflow_id)) report.workflows.set(row.workflow_id, { workflow_id: row.workflow_id, live: zero(), test: zero() });
        for (const counts of [report.workflows.get(row.workflow_id)![row.mode], report[row.mode]]) {
          counts.cases += row.cases;
          counts.runs += row.runs;
        }
      }
      return { live: report.live, test: report.test, workflows: [...report.workflows.values()].sort((a, b) => a.workflow_id - b.workflow_id) };
    }

    it('counts live and test cases and runs apart, per workflow and in total', async () => {
      const first = await givenAutomation(t, { Open: [{ set_status: 'Triage' }], Triage: [{ close: {} }] });
      const second = await anotherAutomation(first, { Open: [{ close: {} }] });
      const cases = [
        await createCase(first), await createCase(first), await createCase(first, { mode: 'test' }),
        await createCase(second), await createCase(second, { mode: 'test' }), await createCase(second, { mode: 'test' }),
      ];
      for (const id of cases) await waitForSettled(id, 'Closed');

      const res = await usage(first, `?from=${from}&to=${to}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        usage: {
          from,
          to,
          live: { cases: 3, runs: 5 },
          test: { cases: 3, runs: 4 },
          workflows: [
            { workflow_id: first.workflowId, live: { cases: 2, runs: 4 }, test: { cases: 1, runs: 2 } },
            { workflow_id: second.workflowId, live: { cases: 1, runs: 1 }, test: { cases: 2, runs: 2 } },
          ],
        },
      });
      const { live, test, workflows } = res.body.usage;
      assert.deepEqual({ live, test, workflows }, await usageFromRows(first.org.id));
    });

    it('answers 422 for a from that is not a date or not before to', async () => {
      const w = await givenAutomation(t, {});
      for (const query of ['?from=yesterday', '?from=2025-13-01T00:00:00Z', `?from=${to}&to=${from}`]) {
        const res = await usage(w, query);
        assert.equal(res.status, 422, `${query}: ${res.text}`);
      }
    });
  });
});

/** What every refused outbound request fails with, whatever the reason (src/shared/outbound/outbound-http.ts). */
const REFUSAL = 'the request could not be sent to that address';

/** `name{labels} value` lines of a Prometheus text exposition, as a lookup. */
function metricValue(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (isDeepStrictEqual(found, labels)) return Number(match[3]);
  }
  return 0;
}

describe('automation on an app of its own (own database and queue: it executes every run it creates)', () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  before(async () => { app = await startIsolatedApp({ OUTBOUND_ALLOW_PRIVATE: 'false' }); });
  after(async () => { await app?.close(); });

  it('refuses http_request to loopback addresses, given as an IP or as a name, before any request is sent', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const port = new URL(receiver.url).port;
    for (const host of ['127.0.0.1', 'localhost']) {
      const w = await givenAutomation(app.t, { Open: [{ http_request: { method: 'POST', url: `http://${host}:${port}/ssrf`, body: { a: 1 }, retries: 0 } }, { close: {} }] });
      const id = await createCase(w);
      await assertParkedInError(w, id, `http_request: POST http://${host}:${port}/ssrf failed: ${REFUSAL} (after 0 retries)`, app.database.pool);
    }
    assert.equal(receiver.requests.length, 0, 'the local receiver got no request');
  });

  it('refuses http_request to IPv4-compatible, mapped, NAT64, 6to4, Teredo and metadata addresses, and to names that do not resolve, all with one message that names no address', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const port = new URL(receiver.url).port;
    const urls = [
      `http://[::127.0.0.1]:${port}/compatible`, `http://[::ffff:7f00:1]:${port}/mapped`, `http://[64:ff9b:1::7f00:1]:${port}/nat64`,
      `http://[2002:7f00:1::1]:${port}/6to4`, `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port}/teredo`,
      'http://169.254.169.254/latest/meta-data/', `http://no-such-host.invalid:${port}/missing`,
    ];
    for (const url of urls) {
      const w = await givenAutomation(app.t, { Open: [{ http_request: { method: 'POST', url, body: { a: 1 }, retries: 0 } }, { close: {} }] });
      // The URL is the admin's own; after it comes only the generic message, never why.
      await assertParkedInError(w, await createCase(w), new RegExp(`^http_request: POST \\S+ failed: ${REFUSAL} \\(after 0 retries\\)$`), app.database.pool);
    }
    assert.equal(receiver.requests.length, 0, 'the local receiver got no request');
  });

  it('GET /metrics counts started and finished runs, live and test apart', async () => {
    const scrape = async () => {
      const res = await app.t.request('GET', '/metrics');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.text, /^# TYPE workflow_runs_started_total counter$/m);
      assert.match(res.text, /^# TYPE workflow_runs_finished_total counter$/m);
      return res.text;
    };
    const counters = (text: string) => ({
      startedLive: metricValue(text, 'workflow_runs_started_total', { mode: 'live' }),
      startedTest: metricValue(text, 'workflow_runs_started_total', { mode: 'test' }),
      succeededLive: metricValue(text, 'workflow_runs_finished_total', { mode: 'live', state: 'succeeded' }),
      succeededTest: metricValue(text, 'workflow_runs_finished_total', { mode: 'test', state: 'succeeded' }),
    });
    const before = counters(await scrape());
    const w = await givenAutomation(app.t, { Open: [{ close: { outcome: 'Counted' } }] });
    for (const mode of ['live', 'test']) await waitForSettled(await createCase(w, { mode }), 'Closed', { pool: app.database.pool });

    const expected = { startedLive: before.startedLive + 1, startedTest: before.startedTest + 1, succeededLive: before.succeededLive + 1, succeededTest: before.succeededTest + 1 };
    let last = before;
    await eventually('the run counters to count one live and one test run', async () => {
      last = counters(await scrape());
      return isDeepStrictEqual(last, expected) ? true : undefined;
    }, { explain: async () => `expected ${JSON.stringify(expected)}, got ${JSON.stringify(last)}` });
  });
});
