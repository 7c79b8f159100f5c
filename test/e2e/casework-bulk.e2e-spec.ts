/**
 * Saved views, bulk changes and the CSV export of the case list (casework.md, sections 5 and 6),
 * as the people of an organization use them from the dashboard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { eventually } from '../support/automation-helpers.js';
import { statusDefinition } from '../support/cases-api.js';
import { unique } from '../support/search-api.js';
import { asSession, givenMember, givenOwnedOrganization, type PeopleOrganization, type Session } from '../support/people-helpers.js';
import { createOrganization, createToken, createWorkflow } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { waitingBackends } from '../support/table-locks.js';
import { closeDb, db, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

/** RFC 4180 records (quoted fields may hold commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { record.push(field); records.push(record); record = []; field = ''; i++; }
    else field += c;
  }
  assert.equal(field + record.join(''), '', 'the text ends with a whole record');
  return records;
}

describe('casework: saved views, bulk changes, CSV export', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let org: PeopleOrganization;
  let origin: string;
  let agent: Session;
  let otherAgent: Session;
  let admin: Session;
  let apiToken: string;
  let triageFlow: number;
  let otherFlow: number;

  const as = (session: Session, method: string, url: string, body?: unknown) => asSession(t, session, origin, method, url, body);
  const newCase = async (workflowId: number, body: Record<string, unknown> = {}): Promise<number> => {
    const res = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body });
    assert.equal(res.status, 201, res.text);
    return res.body.case.id;
  };

  before(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } });
    origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    org = await givenOwnedOrganization(t, sink, origin);
    agent = await givenMember(t, sink, org, 'agent', origin);
    otherAgent = await givenMember(t, sink, org, 'agent', origin);
    admin = await givenMember(t, sink, org, 'admin', origin);
    apiToken = (await createToken(t, org, 'api')).secret;
    triageFlow = await createWorkflow(t, org, statusDefinition());
    otherFlow = await createWorkflow(t, org, statusDefinition({ name: 'Refunds', statuses: ['Review'] }));
  });
  after(async () => {
    await t?.close();
    await sink?.close();
    await closeDb();
  });

  it('saves views with the list\'s own validation; sharing takes an admin; each lists with its current count', async () => {
    for (let i = 0; i < 3; i++) await newCase(otherFlow);
    const own = await as(agent, 'POST', '/api/admin/v1/views', { name: 'Refunds', filters: { workflow_id: String(otherFlow), status: 'Open' }, columns: ['id', 'subject'] });
    assert.equal(own.status, 201, own.text);
    assert.deepEqual({ ...own.body.view, id: 0, created_at: 0, updated_at: 0 }, {
      id: 0, name: 'Refunds', filters: { workflow_id: String(otherFlow), status: 'Open' }, columns: ['id', 'subject'], shared: false, owner: { id: agent.userId }, created_at: 0, updated_at: 0,
    });

    const refused = await as(agent, 'POST', '/api/admin/v1/views', { name: 'Everyone', filters: {}, shared: true });
    assert.equal(refused.status, 403, refused.text);
    const shared = await as(admin, 'POST', '/api/admin/v1/views', { name: 'Everything', filters: { mode: 'live' }, shared: true });
    assert.equal(shared.status, 201, shared.text);

    for (const [filters, path] of [[{ status: '' }, '/filters/status'], [{ cursor: 'x' }, '/filters/cursor'], [{ limit: '5' }, '/filters/limit'], [{ owner: 'me!' }, '/filters/owner'], [{ attributes: '{"a":{"b":{"c":{"d":{"e":1}}}}}' }, '/filters/attributes/a/b/c/d'], ['Open', '/filters']] as const) {
      const res = await as(agent, 'POST', '/api/admin/v1/views', { name: 'Bad', filters });
      assert.equal(res.status, 422, res.text);
      assert.ok(res.body.validation_errors.some((p: { path: string }) => p.path === path), `${JSON.stringify(filters)}: ${res.text}`);
    }

    const listed = await as(agent, 'GET', '/api/admin/v1/views');
    assert.equal(listed.status, 200, listed.text);
    const counts = Object.fromEntries(listed.body.views.map((v: { name: string; count: number; count_capped: boolean }) => [v.name, [v.count, v.count_capped]]));
    const live = (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM cases WHERE organization_id = $1', [org.id])).rows[0]!.n;
    assert.deepEqual(counts, { Refunds: [3, false], Everything: [live, false] });
    const others = await as(otherAgent, 'GET', '/api/admin/v1/views');
    assert.deepEqual(others.body.views.map((v: { name: string }) => v.name), ['Everything'], 'another agent sees the shared view, not the private one');

    const ownId = own.body.view.id;
    const sharedId = shared.body.view.id;
    assert.equal((await as(otherAgent, 'PATCH', `/api/admin/v1/views/${ownId}`, { name: 'Mine now' })).status, 404);
    assert.equal((await as(otherAgent, 'DELETE', `/api/admin/v1/views/${ownId}`)).status, 404);
    assert.equal((await as(agent, 'PATCH', `/api/admin/v1/views/${sharedId}`, { name: 'Taken' })).status, 403);
    assert.equal((await as(agent, 'PATCH', `/api/admin/v1/views/${ownId}`, { shared: true })).status, 403);
    const renamed = await as(agent, 'PATCH', `/api/admin/v1/views/${ownId}`, { name: 'Open refunds', filters: { workflow_id: String(otherFlow) } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual([renamed.body.view.name, renamed.body.view.filters], ['Open refunds', { workflow_id: String(otherFlow) }]);
    assert.equal((await as(admin, 'PATCH', `/api/admin/v1/views/${sharedId}`, { name: 'All live' })).status, 200);
    assert.equal((await as(agent, 'DELETE', `/api/admin/v1/views/${sharedId}`)).status, 403);
    assert.equal((await as(agent, 'DELETE', `/api/admin/v1/views/${ownId}`)).status, 204);
    const audited = await db().query<{ action: string }>(`SELECT action FROM audit_entries WHERE organization_id = $1 AND action LIKE 'case_view.%' ORDER BY id`, [org.id]);
    assert.deepEqual(audited.rows.map((r) => r.action), ['case_view.created', 'case_view.created', 'case_view.changed', 'case_view.changed', 'case_view.deleted']);
  });

  it('changes every case of a bulk job once, as the person who asked, and counts the cases that cannot change with why', async () => {
    const movable = [await newCase(triageFlow), await newCase(triageFlow), await newCase(triageFlow)];
    const undeclared = [await newCase(otherFlow), await newCase(otherFlow)];
    const missing = 987654321;
    const accepted = await as(agent, 'POST', '/api/admin/v1/cases/bulk', { case_ids: [...movable, ...undeclared, missing, movable[0]], change: { status: 'Triage' } });
    assert.equal(accepted.status, 202, accepted.text);
    assert.deepEqual({ ...accepted.body.job, id: 0, created_at: 0 }, { id: 0, total: 6, done: 0, failed: 0, state: 'queued', change: { status: 'Triage' }, created_at: 0, finished_at: null, failures: [] });

    const job = await eventually('the bulk job to finish', async () => {
      const res = await as(agent, 'GET', `/api/admin/v1/jobs/${accepted.body.job.id}`);
      assert.equal(res.status, 200, res.text);
      return res.body.job.state === 'finished' ? res.body.job : undefined;
    });
    assert.deepEqual([job.done, job.failed], [3, 3]);
    assert.deepEqual(job.failures, [
      ...undeclared.map((caseId) => ({ case_id: caseId, reason: 'status "Triage" is not declared on this workflow' })),
      { case_id: missing, reason: 'the case does not exist or belongs to another organization' },
    ]);
    for (const caseId of movable) {
      const timeline = await as(agent, 'GET', `/api/admin/v1/cases/${caseId}/timeline`);
      const moves = timeline.body.events.filter((e: { type: string }) => e.type === 'status_changed');
      assert.deepEqual(moves.map((e: { from: string; to: string; by: unknown }) => [e.from, e.to, e.by]), [['Open', 'Triage', { type: 'user', id: agent.userId, name: agent.email }]]);
    }
    const audited = await db().query<{ target_id: string }>(`SELECT target_id FROM audit_entries WHERE organization_id = $1 AND action = 'case.changed' ORDER BY target_id::bigint`, [org.id]);
    assert.deepEqual(audited.rows.map((r) => Number(r.target_id)), movable);
    assert.equal((await as(otherAgent, 'GET', `/api/admin/v1/jobs/${accepted.body.job.id}`)).status, 200, 'anyone of the organization who works cases follows it');
    const elsewhere = await createOrganization(t);
    assert.equal((await t.request('GET', `/api/admin/v1/jobs/${accepted.body.job.id}`, { token: elsewhere.adminToken })).status, 404, 'another organization\'s job does not exist');
  });

  it('assigns and sets the priority of cases in bulk as one PATCH each would; an assignee who may not work cases fails the case with why', async () => {
    const worked = [await newCase(triageFlow), await newCase(triageFlow), await newCase(otherFlow)];
    const finished = async (body: unknown) => {
      const accepted = await as(agent, 'POST', '/api/admin/v1/cases/bulk', body);
      assert.equal(accepted.status, 202, accepted.text);
      return eventually('the bulk job to finish', async () => {
        const job = (await as(agent, 'GET', `/api/admin/v1/jobs/${accepted.body.job.id}`)).body.job;
        return job.state === 'finished' ? job : undefined;
      });
    };
    const job = await finished({ case_ids: worked, change: { assignee_id: otherAgent.userId, priority: 'urgent' } });
    assert.deepEqual([job.done, job.failed, job.failures], [3, 0, []]);
    for (const caseId of worked) {
      const shown = (await as(agent, 'GET', `/api/admin/v1/cases/${caseId}`)).body.case;
      assert.deepEqual([shown.assignee, shown.priority], [{ id: otherAgent.userId, email: otherAgent.email }, 'urgent']);
      const events = (await as(agent, 'GET', `/api/admin/v1/cases/${caseId}/timeline`)).body.events;
      assert.deepEqual(events.filter((e: any) => e.type === 'assigned').map((e: any) => [e.from, e.to, e.by]), [[null, { id: otherAgent.userId, email: otherAgent.email }, { type: 'user', id: agent.userId, name: agent.email }]]);
      assert.deepEqual(events.filter((e: any) => e.type === 'priority_changed').map((e: any) => [e.from, e.to]), [['normal', 'urgent']]);
    }
    const audited = await db().query<{ target_id: string }>(`SELECT target_id FROM audit_entries WHERE organization_id = $1 AND action = 'case.changed' AND target_id = ANY($2::text[]) ORDER BY target_id::bigint`, [org.id, worked.map(String)]);
    assert.deepEqual(audited.rows.map((r) => Number(r.target_id)), worked);
    await eventually('the assignee\'s notification mails', async () => (sink.mails.filter((m) => m.to.includes(otherAgent.email) && /was assigned to you/.test(m.parsed.text ?? '')).length === 3 ? true : undefined));

    const viewer = await givenMember(t, sink, org, 'viewer', origin);
    const refused = await finished({ case_ids: [worked[0], worked[1]], change: { assignee_id: viewer.userId, priority: 'low' } });
    assert.deepEqual([refused.done, refused.failed], [0, 2]);
    const reason = `user ${viewer.userId} is not an active user of the organization with a role of agent or stronger`;
    assert.deepEqual(refused.failures, [{ case_id: worked[0], reason }, { case_id: worked[1], reason }]);
    assert.equal((await as(agent, 'GET', `/api/admin/v1/cases/${worked[0]}`)).body.case.priority, 'urgent', 'a refused case changes nothing');
  });

  it('locks every case of a chunk before the team it sets, so a PATCH of one of them racing the job waits for it instead of deadlocking', async () => {
    const team = await t.request('POST', '/api/admin/v1/teams', { token: org.adminToken, body: { name: `Racing ${Date.now()}`, member_ids: [agent.userId] } });
    assert.equal(team.status, 201, team.text);
    const teamId = team.body.team.id;
    const [first, second] = [await newCase(triageFlow), await newCase(triageFlow)];
    // Holding the team keeps the job's chunk waiting for it, with whatever it locked before.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
      const accepted = await as(agent, 'POST', '/api/admin/v1/cases/bulk', { case_ids: [first, second], change: { team_id: teamId } });
      assert.equal(accepted.status, 202, accepted.text);
      await eventually('the job\'s chunk waits for the team', async () => ((await waitingBackends()) === 1 ? true : undefined));
      const unlocked = await db().query<{ id: string }>('SELECT id FROM cases WHERE id = ANY($1::bigint[]) FOR UPDATE SKIP LOCKED', [[first, second]]);
      assert.deepEqual(unlocked.rows, [], 'both cases are the chunk\'s before it waits for the team');
      const patch = as(agent, 'PATCH', `/api/admin/v1/cases/${second}`, { team_id: teamId, priority: 'high' });
      await eventually('the PATCH waits for its case', async () => ((await waitingBackends()) === 2 ? true : undefined));
      await holder.query('COMMIT');
      const patched = await patch;
      assert.equal(patched.status, 200, patched.text);
      const job = await eventually('the bulk job to finish', async () => {
        const res = (await as(agent, 'GET', `/api/admin/v1/jobs/${accepted.body.job.id}`)).body.job;
        return res.state === 'finished' ? res : undefined;
      });
      assert.deepEqual([job.done, job.failed, job.failures], [2, 0, []]);
      for (const caseId of [first, second]) assert.equal((await as(agent, 'GET', `/api/admin/v1/cases/${caseId}`)).body.case.team.id, teamId);
      assert.equal((await as(agent, 'GET', `/api/admin/v1/cases/${second}`)).body.case.priority, 'high');
    } finally {
      await holder.end();
    }
  });

  it('stops changing cases once who asked may no longer: the chunk under way ends, the rest are failed with why', async () => {
    const asker = await givenMember(t, sink, org, 'agent', origin);
    const cases: number[] = [];
    for (let i = 0; i < 51; i++) cases.push(await newCase(triageFlow));
    // Holding the first case keeps the first chunk (50 cases) waiting for it, past the check of who asked.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM cases WHERE id = $1 FOR UPDATE', [cases[0]]);
      const accepted = await as(asker, 'POST', '/api/admin/v1/cases/bulk', { case_ids: cases, change: { priority: 'high' } });
      assert.equal(accepted.status, 202, accepted.text);
      await eventually('the first chunk waits for its case', async () => ((await waitingBackends()) === 1 ? true : undefined));
      const demoted = await as(org.owner, 'PATCH', `/api/admin/v1/users/${asker.userId}`, { role: 'viewer' });
      assert.equal(demoted.status, 200, demoted.text);
      await holder.query('COMMIT');
      const job = await eventually('the bulk job to finish', async () => {
        const res = (await t.request('GET', `/api/admin/v1/jobs/${accepted.body.job.id}`, { token: org.adminToken })).body.job;
        return res.state === 'finished' ? res : undefined;
      });
      assert.deepEqual([job.done, job.failed, job.failures], [50, 1, [{ case_id: cases[50], reason: 'who asked for this change may no longer change cases' }]]);
      const high = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM cases WHERE id = ANY($1::bigint[]) AND priority = 'high'`, [cases]);
      assert.equal(high.rows[0]!.n, 50);
    } finally {
      await holder.end();
    }
  });

  it('refuses a bulk change without one selection, with a change it cannot make, or beyond 10,000 cases', async () => {
    const refused = async (body: unknown, path?: string): Promise<InjectResult> => {
      const res = await as(agent, 'POST', '/api/admin/v1/cases/bulk', body);
      assert.equal(res.status, 422, res.text);
      if (path !== undefined) assert.ok(res.body.validation_errors.some((p: { path: string }) => p.path === path), res.text);
      return res;
    };
    await refused({ change: { status: 'Triage' } }, '');
    await refused({ filter: {}, case_ids: [1], change: { status: 'Triage' } }, '');
    await refused({ case_ids: [1], change: {} }, '/change');
    await refused({ case_ids: [1], change: { status: 7 } }, '/change/status');
    await refused({ case_ids: [1], change: { colour: 'red' } }, '/change/colour');
    await refused({ filter: { status: '' }, change: { status: 'Triage' } }, '/filter/status');
    await refused({ filter: { cursor: 'x' }, change: { status: 'Triage' } }, '/filter/cursor');
    await refused({ case_ids: Array.from({ length: 10_001 }, (_, i) => i + 1), change: { status: 'Triage' } }, '/case_ids');
    const none = await refused({ filter: { status: 'Nobody has this' }, change: { status: 'Triage' } });
    assert.match(none.body.error, /nothing to change/);
  });

  it('exports and shows in views who works each case: assignee (email), team (name) and priority', async () => {
    const team = await t.request('POST', '/api/admin/v1/teams', { token: org.adminToken, body: { name: `=Front line ${Date.now()}`, member_ids: [agent.userId] } });
    assert.equal(team.status, 201, team.text);
    const [worked, idle] = [await newCase(triageFlow), await newCase(triageFlow)];
    const patched = await as(agent, 'PATCH', `/api/admin/v1/cases/${worked}`, { assignee_id: agent.userId, team_id: team.body.team.id, priority: 'high' });
    assert.equal(patched.status, 200, patched.text);
    const res = await as(agent, 'GET', `/api/admin/v1/cases/export.csv?workflow_id=${triageFlow}&created_after=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}&columns=id,assignee,team,priority`);
    assert.equal(res.status, 200, res.text);
    const records = parseCsv(res.text);
    assert.deepEqual(records[0], ['id', 'assignee', 'team', 'priority']);
    const byId = new Map(records.slice(1).map((r) => [Number(r[0]), r]));
    assert.deepEqual(byId.get(worked), [String(worked), agent.email, `'${team.body.team.name}`, 'high']);
    assert.deepEqual(byId.get(idle), [String(idle), '', '', 'normal']);
    const all = parseCsv((await as(agent, 'GET', `/api/admin/v1/cases/export.csv?workflow_id=${triageFlow}`)).text)[0]!;
    assert.ok(['assignee', 'team', 'priority'].every((column) => all.includes(column)), all.join(','));
    const view = await as(agent, 'POST', '/api/admin/v1/views', { name: 'Who works what', filters: {}, columns: ['id', 'assignee', 'team', 'priority'] });
    assert.equal(view.status, 201, view.text);
    assert.deepEqual(view.body.view.columns, ['id', 'assignee', 'team', 'priority']);
  });

  it('takes q as the list does: a view counts, a bulk change changes and an export holds only the cases it finds', async () => {
    const word = unique();
    const found = [await newCase(triageFlow, { subject: `Printer ${word}` }), await newCase(triageFlow, { subject: `Scanner ${word}` })];
    const other = await newCase(triageFlow, { subject: 'Printer jam' });
    const filters = { workflow_id: String(triageFlow), q: word };
    await eventually('the cases searchable', async () => {
      const listed = await as(agent, 'GET', `/api/admin/v1/cases?${new URLSearchParams(filters)}`);
      assert.equal(listed.status, 200, listed.text);
      return listed.body.cases.length === found.length ? true : undefined;
    });

    const view = await as(agent, 'POST', '/api/admin/v1/views', { name: `Search ${word}`, filters });
    assert.equal(view.status, 201, view.text);
    const views = await as(agent, 'GET', '/api/admin/v1/views');
    const counted = views.body.views.find((v: { id: number }) => v.id === view.body.view.id);
    assert.deepEqual([counted.count, counted.count_capped], [found.length, false]);

    const csv = await as(agent, 'GET', `/api/admin/v1/cases/export.csv?${new URLSearchParams({ ...filters, columns: 'id' })}`);
    assert.equal(csv.status, 200, csv.text);
    assert.deepEqual(parseCsv(csv.text).slice(1).map((r) => Number(r[0])).sort(), [...found].sort());

    const accepted = await as(agent, 'POST', '/api/admin/v1/cases/bulk', { filter: { ...filters, status: 'Open' }, change: { status: 'Triage' } });
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(accepted.body.job.total, found.length);
    await eventually('the bulk job to finish', async () => ((await as(agent, 'GET', `/api/admin/v1/jobs/${accepted.body.job.id}`)).body.job.state === 'finished' ? true : undefined));
    const statuses = await db().query<{ id: string; status: string }>('SELECT id, status FROM cases WHERE organization_id = $1 AND id = ANY($2::bigint[]) ORDER BY id', [org.id, [...found, other]]);
    assert.deepEqual(statuses.rows.map((r) => [Number(r.id), r.status]), [...found.map((id) => [id, 'Triage']), [other, 'Open']]);

    for (const [filter, path] of [[{ q: '-printer' }, '/filter/q'], [{ q: word, sort: 'priority' }, '/filter/sort']] as const) {
      const refused = await as(agent, 'POST', '/api/admin/v1/cases/bulk', { filter, change: { status: 'Triage' } });
      assert.equal(refused.status, 422, refused.text);
      assert.deepEqual(refused.body.validation_errors.map((p: { path: string }) => p.path), [path], refused.text);
    }
  });

  it('exports the filtered cases as RFC 4180 CSV with formulas defused', async () => {
    const hostile = ['=HYPERLINK("http://evil.example","click")', '+1', '-2', '@SUM(A1)', '\tTab', 'a, "quoted"\nsecond line'];
    const ids: number[] = [];
    for (const subject of hostile) ids.push(await newCase(triageFlow, { subject }));
    const res = await as(agent, 'GET', `/api/admin/v1/cases/export.csv?workflow_id=${triageFlow}&created_after=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}&columns=id,subject,status`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="cases.csv"');
    const records = parseCsv(res.text);
    assert.deepEqual(records[0], ['id', 'subject', 'status']);
    const byId = new Map(records.slice(1).map((r) => [Number(r[0]), r]));
    for (const [i, subject] of hostile.entries()) {
      const expected = /^[=+\-@\t\r]/.test(subject) ? `'${subject}` : subject;
      assert.deepEqual(byId.get(ids[i]!), [String(ids[i]), expected, 'Open'], subject);
    }
    assert.match(res.text, /"a, ""quoted""\nsecond line"/, 'commas, quotes and line breaks quoted');

    for (const [query, path] of [['limit=5', '/limit'], ['cursor=abc', '/cursor'], ['columns=id,password', '/columns'], ['columns=id,id', '/columns']] as const) {
      const bad = await as(agent, 'GET', `/api/admin/v1/cases/export.csv?${query}`);
      assert.equal(bad.status, 422, bad.text);
      assert.ok(bad.body.validation_errors.some((p: { path: string }) => p.path === path), bad.text);
    }
  });
});

describe('a bulk job whose chunk waits for a case past the statement timeout', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '500', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } });
  });
  after(async () => {
    await t?.close();
    await closeDb();
  });

  it('is run again once the case is free: the case changes, and is not counted as failed', async () => {
    const org = await createOrganization(t);
    const { secret } = await createToken(t, org, 'api');
    const workflowId = await createWorkflow(t, org, statusDefinition());
    const created = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: secret, body: {} });
    assert.equal(created.status, 201, created.text);
    const caseId = created.body.case.id;
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM cases WHERE id = $1 FOR UPDATE', [caseId]);
      const accepted = await t.request('POST', '/api/admin/v1/cases/bulk', { token: org.adminToken, body: { case_ids: [caseId], change: { status: 'Triage' } } });
      assert.equal(accepted.status, 202, accepted.text);
      // Four statement timeouts long: the chunk's wait for the case is cancelled, and so is the wait of that case alone.
      await sleep(2_000);
      await holder.query('COMMIT');
      const job = await eventually('the bulk job to finish', async () => {
        const res = (await t.request('GET', `/api/admin/v1/jobs/${accepted.body.job.id}`, { token: org.adminToken })).body.job;
        return res.state === 'finished' ? res : undefined;
      }, { timeoutMs: 30_000 });
      assert.deepEqual([job.done, job.failed, job.failures], [1, 0, []]);
      assert.equal((await t.request('GET', `/api/admin/v1/cases/${caseId}`, { token: org.adminToken })).body.case.status, 'Triage');
    } finally {
      await holder.end();
    }
  });
});
