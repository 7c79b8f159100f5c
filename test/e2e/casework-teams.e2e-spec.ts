/**
 * Teams and working cases (casework.md, sections 2 and 5): teams, the admin PATCH of a case
 * (assignee, team, priority, status, attributes as one change), the admin case's new fields,
 * their timeline rows, event and audit entries, and the list's new filters and orders.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { eventually } from '../support/automation-helpers.js';
import { fromDashboard, givenMember, givenOwnedOrganization, type PeopleOrganization, type Session, uniqueEmail } from '../support/people-helpers.js';
import { createToken, createWorkflow, sampleDefinition } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { waitingBackends } from '../support/table-locks.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const CASES = '/api/admin/v1/cases';
const TEAMS = '/api/admin/v1/teams';

describe('teams and working cases', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let org: PeopleOrganization;
  let agent: Session;
  let otherAgent: Session;
  let viewer: Session;
  let apiToken: string;
  let workflowId: number;

  const admin = (method: string, url: string, body?: unknown) => t.request(method, url, { body, token: org.adminToken });
  const openCase = async (attributes: Record<string, unknown> = { customer_email: 'ada@example.com' }): Promise<number> => {
    const res = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes } });
    assert.equal(res.status, 201, res.text);
    return res.body.case.id;
  };
  /** A connection of the test's own, in a transaction it ends itself: to hold rows while the service waits for them. */
  const holder = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query('BEGIN');
    return client;
  };
  const timeline = async (caseId: number) => (await admin('GET', `${CASES}/${caseId}/timeline`)).body.events as Record<string, unknown>[];

  before(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } });
    const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    org = await givenOwnedOrganization(t, sink, origin);
    agent = await givenMember(t, sink, org, 'agent', origin);
    otherAgent = await givenMember(t, sink, org, 'editor', origin);
    viewer = await givenMember(t, sink, org, 'viewer', origin);
    apiToken = (await createToken(t, org, 'api')).secret;
    // No automation: a status move starts no run that would move the case on.
    workflowId = await createWorkflow(t, org, sampleDefinition({ automations: {} }));
  });
  after(async () => {
    await t?.close();
    await sink?.close();
    await closeDb();
  });

  describe('teams', () => {
    it('creates a team of active agents, lists it for an agent, and refuses a taken name in any case', async () => {
      const created = await admin('POST', TEAMS, { name: 'Billing', member_ids: [agent.userId, otherAgent.userId] });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body.team).sort(), ['created_at', 'id', 'member_ids', 'members', 'name']);
      assert.deepEqual(created.body.team.member_ids, [agent.userId, otherAgent.userId].sort((a, b) => a - b));
      const listed = await fromDashboard(t, agent, 'GET', TEAMS);
      assert.equal(listed.status, 200, listed.text);
      const billing = listed.body.teams.find((team: { id: number }) => team.id === created.body.team.id);
      assert.deepEqual(billing.members, [agent, otherAgent].sort((a, b) => a.userId - b.userId).map((m) => ({ id: m.userId, email: m.email })));
      const taken = await admin('POST', TEAMS, { name: 'bILLING', member_ids: [] });
      assert.equal(taken.status, 422, taken.text);
      assert.equal(taken.body.validation_errors[0].path, '/name');
    });

    it('refuses members who may not work cases: a viewer, an invited user, a user of another organization', async () => {
      const invited = await fromDashboard(t, org.owner, 'POST', '/api/admin/v1/users', { email: uniqueEmail('invited'), role: 'agent' });
      assert.equal(invited.status, 201, invited.text);
      const res = await admin('POST', TEAMS, { name: 'Refused', member_ids: [agent.userId, viewer.userId, invited.body.user.id, 987654321] });
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), ['/member_ids/1', '/member_ids/2', '/member_ids/3']);
      assert.equal((await fromDashboard(t, agent, 'POST', TEAMS, { name: 'By an agent', member_ids: [] })).status, 403);
    });

    it('renames a team and replaces its members, audited', async () => {
      const created = await admin('POST', TEAMS, { name: 'Returns', member_ids: [agent.userId] });
      const changed = await admin('PATCH', `${TEAMS}/${created.body.team.id}`, { name: 'Returns EU', member_ids: [otherAgent.userId] });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.body.team.name, 'Returns EU');
      assert.deepEqual(changed.body.team.member_ids, [otherAgent.userId]);
      const entries = await eventually('the audit entry', async () => {
        const res = await admin('GET', `/api/admin/v1/audit?target=team:${created.body.team.id}`);
        return res.body.entries.length >= 2 ? res.body.entries : undefined;
      });
      assert.deepEqual(entries.map((e: { action: string }) => e.action), ['team.changed', 'team.created']);
    });

    it('refuses a null name or null members with 422 at the field, and changes nothing', async () => {
      const created = await admin('POST', TEAMS, { name: 'Nullable', member_ids: [agent.userId] });
      assert.equal(created.status, 201, created.text);
      for (const [body, path] of [[{ name: null }, '/name'], [{ member_ids: null }, '/member_ids'], [{ name: null, member_ids: [] }, '/name']] as const) {
        const res = await admin('PATCH', `${TEAMS}/${created.body.team.id}`, body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
        assert.ok(res.body.validation_errors.some((p: { path: string }) => p.path === path), res.text);
      }
      const listed = (await admin('GET', TEAMS)).body.teams.find((team: { id: number }) => team.id === created.body.team.id);
      assert.deepEqual([listed.name, listed.member_ids], ['Nullable', [agent.userId]]);
    });

    it('refuses a rename to a name another team took in a transaction that committed after the check (422), not a 500', async () => {
      const [taker, renamed] = [(await admin('POST', TEAMS, { name: 'Racer one', member_ids: [] })).body.team, (await admin('POST', TEAMS, { name: 'Racer two', member_ids: [] })).body.team];
      const other = await holder();
      try {
        await other.query('UPDATE teams SET name = $2 WHERE id = $1', [taker.id, 'Finish line']);
        const rename = admin('PATCH', `${TEAMS}/${renamed.id}`, { name: 'finish LINE' });
        await eventually('the rename waits for the other transaction\'s name', async () => ((await waitingBackends()) === 1 ? true : undefined));
        await other.query('COMMIT');
        const res = await rename;
        assert.equal(res.status, 422, res.text);
        assert.deepEqual(res.body.validation_errors, [{ path: '/name', error: 'already taken by another team of the organization' }]);
      } finally {
        await other.end();
      }
      const names = (await admin('GET', TEAMS)).body.teams.filter((team: { id: number }) => [taker.id, renamed.id].includes(team.id)).map((team: { name: string }) => team.name);
      assert.deepEqual(names.sort(), ['Finish line', 'Racer two']);
    });

    it('a deleted team\'s cases keep their assignee and lose the team, each with an assigned row by who deleted it; another team\'s cases are left alone', async () => {
      const team = (await admin('POST', TEAMS, { name: 'Short-lived', member_ids: [agent.userId] })).body.team;
      const other = (await admin('POST', TEAMS, { name: 'Staying', member_ids: [agent.userId] })).body.team;
      const [caseId, unassignedId, otherId] = [await openCase(), await openCase(), await openCase()];
      for (const [id, change] of [[caseId, { team_id: team.id, assignee_id: agent.userId }], [unassignedId, { team_id: team.id }], [otherId, { team_id: other.id }]] as const) {
        const res = await admin('PATCH', `${CASES}/${id}`, change);
        assert.equal(res.status, 200, res.text);
      }
      assert.equal((await admin('DELETE', `${TEAMS}/${team.id}`)).status, 204);
      const read = await admin('GET', `${CASES}/${caseId}`);
      assert.equal(read.body.case.team, null);
      assert.deepEqual(read.body.case.assignee, { id: agent.userId, email: agent.email });
      const lost = { team_from: { id: team.id, name: 'Short-lived' }, team_to: null };
      for (const [id, assignee] of [[caseId, { id: agent.userId, email: agent.email }], [unassignedId, null]] as const) {
        const last = (await timeline(id)).filter((e) => e.type === 'assigned').at(-1)!;
        assert.deepEqual({ from: last.from, to: last.to, team_from: last.team_from, team_to: last.team_to }, { from: assignee, to: assignee, ...lost }, `case ${id}`);
        assert.equal((last.by as { type: string }).type, 'admin_token');
      }
      assert.equal((await timeline(otherId)).filter((e) => e.type === 'assigned').length, 1, 'the other team\'s case has only its own assignment');
      assert.deepEqual((await admin('GET', `${CASES}/${otherId}`)).body.case.team, { id: other.id, name: 'Staying' });
      assert.equal((await admin('DELETE', `${TEAMS}/${team.id}`)).status, 404);
    });

    it('a case given to the team while its cases were being moved loses it too, with its assigned row', async () => {
      const team = (await admin('POST', TEAMS, { name: 'Raced', member_ids: [agent.userId] })).body.team;
      const [early, late] = [await openCase(), await openCase()];
      assert.equal((await admin('PATCH', `${CASES}/${early}`, { team_id: team.id })).status, 200);
      const other = await holder();
      try {
        // As a change giving a case to the team holds it: the deletion moves the cases it found, then waits for the team.
        await other.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [team.id]);
        const deletion = admin('DELETE', `${TEAMS}/${team.id}`);
        await eventually('the deletion waits for the team', async () => ((await waitingBackends()) === 1 ? true : undefined));
        await other.query('UPDATE cases SET team_id = $1, assignee_id = $2 WHERE id = $3', [team.id, agent.userId, late]);
        await other.query('COMMIT');
        assert.equal((await deletion).status, 204);
      } finally {
        await other.end();
      }
      const stored = await db().query('SELECT id FROM cases WHERE id = ANY($1::bigint[]) AND team_id IS NOT NULL', [[early, late]]);
      assert.deepEqual(stored.rows, [], 'no case keeps the deleted team');
      const last = (await timeline(late)).filter((e) => e.type === 'assigned').at(-1);
      const assignee = { id: agent.userId, email: agent.email };
      assert.deepEqual(last && { from: last.from, to: last.to, team_from: last.team_from, team_to: last.team_to }, { from: assignee, to: assignee, team_from: { id: team.id, name: 'Raced' }, team_to: null });
    });
  });

  describe('PATCH /api/admin/v1/cases/{id}', () => {
    it('assigns a case and sets its priority: the admin case shows them, the cases API\'s Case does not', async () => {
      const team = (await admin('POST', TEAMS, { name: 'Front line', member_ids: [agent.userId] })).body.team;
      const caseId = await openCase();
      const fresh = await admin('GET', `${CASES}/${caseId}`);
      assert.equal(fresh.body.case.priority, 'normal');
      assert.equal(fresh.body.case.assignee, null);
      assert.equal(fresh.body.case.team, null);
      const res = await fromDashboard(t, agent, 'PATCH', `${CASES}/${caseId}`, { assignee_id: agent.userId, team_id: team.id, priority: 'urgent' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.case.assignee, { id: agent.userId, email: agent.email });
      assert.deepEqual(res.body.case.team, { id: team.id, name: 'Front line' });
      assert.equal(res.body.case.priority, 'urgent');
      const api = await t.request('GET', `/api/external/v1/workflows/${workflowId}/cases/${caseId}`, { token: apiToken });
      assert.deepEqual(Object.keys(api.body.case).sort(), ['attributes', 'created_at', 'id', 'mode', 'outcome', 'status', 'subject', 'updated_at', 'workflow_id']);
      const events = await timeline(caseId);
      const assigned = events.find((e) => e.type === 'assigned')!;
      assert.deepEqual({ from: assigned.from, to: assigned.to, team_from: assigned.team_from, team_to: assigned.team_to }, { from: null, to: { id: agent.userId, email: agent.email }, team_from: null, team_to: { id: team.id, name: 'Front line' } });
      assert.deepEqual(assigned.by, { type: 'user', id: agent.userId, name: agent.email });
      const prioritized = events.find((e) => e.type === 'priority_changed')!;
      assert.deepEqual([prioritized.from, prioritized.to], ['normal', 'urgent']);
      const audited = await eventually('the audit entry', async () => (await admin('GET', `/api/admin/v1/audit?target=case:${caseId}`)).body.entries[0]);
      assert.equal(audited.action, 'case.changed');
      assert.deepEqual(audited.actor, { type: 'user', id: String(agent.userId), name: agent.email });
    });

    it('runs a change again when Postgres breaks it off as a deadlock\'s loser: 200, changed once, never a 500', async () => {
      const team = (await admin('POST', TEAMS, { name: 'Deadlocked', member_ids: [agent.userId] })).body.team;
      const caseId = await openCase();
      const other = await holder();
      try {
        // The test's connection looks for a deadlock only after 10 s: the PATCH, waiting since before it, is the one Postgres breaks off.
        await other.query(`SET LOCAL deadlock_timeout = '10s'`);
        await other.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [team.id]);
        const patch = admin('PATCH', `${CASES}/${caseId}`, { team_id: team.id, priority: 'high' });
        await eventually('the PATCH holds its case and waits for the team', async () => ((await waitingBackends()) === 1 ? true : undefined));
        await other.query('SELECT 1 FROM cases WHERE id = $1 FOR UPDATE', [caseId]);
        await other.query('COMMIT');
        const res = await patch;
        assert.equal(res.status, 200, res.text);
        assert.deepEqual([res.body.case.team, res.body.case.priority], [{ id: team.id, name: 'Deadlocked' }, 'high']);
      } finally {
        await other.end();
      }
      assert.equal((await timeline(caseId)).filter((event) => event.type === 'priority_changed').length, 1);
    });

    it('tells case.assigned to a subscription that wants it', async () => {
      const subscribed = await admin('POST', '/api/admin/v1/subscriptions', { url: 'https://hooks.example/assigned', events: ['case.assigned'] });
      assert.equal(subscribed.status, 201, subscribed.text);
      const caseId = await openCase();
      assert.equal((await admin('PATCH', `${CASES}/${caseId}`, { assignee_id: agent.userId })).status, 200);
      const { rows } = await db().query(`SELECT type FROM outbox_events WHERE case_id = $1 ORDER BY id`, [caseId]);
      assert.deepEqual(rows.map((row) => row.type), ['case.assigned']);
    });

    it('refuses an assignee who may not work cases, outside the team, or a team of another organization, and changes nothing', async () => {
      const team = (await admin('POST', TEAMS, { name: 'Night shift', member_ids: [otherAgent.userId] })).body.team;
      const caseId = await openCase();
      const refusals: [unknown, string][] = [
        [{ assignee_id: viewer.userId, priority: 'high' }, '/assignee_id'],
        [{ assignee_id: 987654321 }, '/assignee_id'],
        [{ assignee_id: agent.userId, team_id: team.id }, '/assignee_id'],
        [{ team_id: 987654321, priority: 'low' }, '/team_id'],
      ];
      for (const [body, path] of refusals) {
        const res = await admin('PATCH', `${CASES}/${caseId}`, body);
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.validation_errors[0].path, path, JSON.stringify(body));
      }
      const other = await givenOwnedOrganization(t, sink, new URL(t.env.PUBLIC_BASE_URL!).origin);
      const foreignTeam = await t.request('POST', TEAMS, { token: other.adminToken, body: { name: 'Foreign', member_ids: [] } });
      assert.equal((await admin('PATCH', `${CASES}/${caseId}`, { team_id: foreignTeam.body.team.id })).status, 422);
      assert.equal((await t.request('PATCH', `${CASES}/${caseId}`, { token: other.adminToken, body: { priority: 'high' } })).status, 404);
      const read = (await admin('GET', `${CASES}/${caseId}`)).body.case;
      assert.deepEqual([read.assignee, read.team, read.priority], [null, null, 'normal']);
      for (const body of [{}, { priority: 'whenever' }, { priority: null }, { assignee_id: 'me' }, { subject: 'x' }]) {
        assert.equal((await admin('PATCH', `${CASES}/${caseId}`, body)).status, 422, JSON.stringify(body));
      }
      assert.equal((await fromDashboard(t, viewer, 'PATCH', `${CASES}/${caseId}`, { priority: 'high' })).status, 403);
    });

    it('moves the status as the cases API does (declared, never Error, recorded, the run starts) together with the rest, or nothing', async () => {
      const runWorkflow = await createWorkflow(t, org, sampleDefinition({ automations: { Triage: [{ set_attributes: { triaged: true } }] } }));
      const opened = await t.request('POST', `/api/external/v1/workflows/${runWorkflow}/cases`, { token: apiToken, body: { attributes: { customer_email: 'ada@example.com' } } });
      const caseId: number = opened.body.case.id;
      for (const status of ['Error', 'Nowhere']) {
        const res = await admin('PATCH', `${CASES}/${caseId}`, { status, priority: 'high' });
        assert.equal(res.status, 422, res.text);
      }
      assert.equal((await admin('GET', `${CASES}/${caseId}`)).body.case.priority, 'normal');
      const moved = await fromDashboard(t, agent, 'PATCH', `${CASES}/${caseId}`, { status: 'Triage', priority: 'high' });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.case.status, 'Triage');
      const events = await timeline(caseId);
      const move = events.find((e) => e.type === 'status_changed')!;
      assert.deepEqual([move.from, move.to, (move.by as { type: string }).type], ['Open', 'Triage', 'user']);
      const runs = (await admin('GET', `${CASES}/${caseId}/runs`)).body.runs as { status_at_start: string }[];
      assert.deepEqual(runs.map((run) => run.status_at_start), ['Triage'], 'the move started Triage\'s run, as the cases API\'s would');
    });

    it('merges attributes as a JSON merge patch checked as a whole against the schema', async () => {
      const caseId = await openCase({ customer_email: 'ada@example.com', order: { id: 'A1', lines: 2 }, vip: true });
      const merged = await admin('PATCH', `${CASES}/${caseId}`, { attributes: { order: { lines: null, total: 5 }, vip: null, amount: 12.5 } });
      assert.equal(merged.status, 200, merged.text);
      assert.deepEqual(merged.body.case.attributes, { customer_email: 'ada@example.com', order: { id: 'A1', total: 5 }, amount: 12.5 });
      const removingRequired = await admin('PATCH', `${CASES}/${caseId}`, { attributes: { customer_email: null } });
      assert.equal(removingRequired.status, 422, removingRequired.text);
      assert.ok(removingRequired.body.validation_errors.length > 0);
      const wrongType = await admin('PATCH', `${CASES}/${caseId}`, { attributes: { amount: 'lots' }, priority: 'low' });
      assert.equal(wrongType.status, 422, wrongType.text);
      assert.equal(wrongType.body.validation_errors[0].path, '/attributes/amount');
      const read = (await admin('GET', `${CASES}/${caseId}`)).body.case;
      assert.deepEqual([read.attributes.amount, read.priority], [12.5, 'normal']);
      const changed = (await timeline(caseId)).find((e) => e.type === 'attributes_changed')!;
      assert.deepEqual((changed.keys as string[]).sort(), ['amount', 'order', 'vip']);
    });
  });

  describe('the admin case list', () => {
    it('filters by assignee (me, none, an id), team and priority', async () => {
      const team = (await admin('POST', TEAMS, { name: 'Filters', member_ids: [agent.userId, otherAgent.userId] })).body.team;
      const mine = await openCase();
      const theirs = await openCase();
      const nobodys = await openCase();
      await fromDashboard(t, agent, 'PATCH', `${CASES}/${mine}`, { assignee_id: agent.userId, team_id: team.id, priority: 'high' });
      await admin('PATCH', `${CASES}/${theirs}`, { assignee_id: otherAgent.userId, priority: 'low' });
      const ids = async (query: string, as?: Session) => {
        const res = as ? await fromDashboard(t, as, 'GET', `${CASES}?workflow_id=${workflowId}&${query}`) : await admin('GET', `${CASES}?workflow_id=${workflowId}&${query}`);
        assert.equal(res.status, 200, res.text);
        return res.body.cases.map((c: { id: number }) => c.id) as number[];
      };
      assert.deepEqual(await ids('assignee=me', agent), (await ids(`assignee=${agent.userId}`)));
      assert.ok((await ids('assignee=me', agent)).includes(mine));
      assert.ok(!(await ids('assignee=me', agent)).includes(theirs));
      assert.ok((await ids('assignee=none')).includes(nobodys));
      assert.ok(!(await ids('assignee=none')).includes(mine));
      assert.deepEqual(await ids(`team_id=${team.id}`), [mine]);
      const urgentOrHigh = await ids('priority=high,urgent');
      assert.ok(urgentOrHigh.includes(mine) && !urgentOrHigh.includes(theirs) && !urgentOrHigh.includes(nobodys));
      assert.equal((await admin('GET', `${CASES}?assignee=me`)).status, 422);
      for (const query of ['assignee=someone', 'priority=high,', 'team_id=0', 'sort=subject']) assert.equal((await admin('GET', `${CASES}?${query}`)).status, 422, query);
    });

    it('sorts by priority, created_at and updated_at either way, paging exactly', async () => {
      const sorting = await createWorkflow(t, org, sampleDefinition({ name: 'Sorting', automations: {} }));
      const made: { id: number; priority: string }[] = [];
      for (const priority of ['low', 'urgent', 'normal', 'high', 'urgent', 'low', 'normal']) {
        const res = await t.request('POST', `/api/external/v1/workflows/${sorting}/cases`, { token: apiToken, body: { attributes: { customer_email: 'a@example.com' } } });
        made.push({ id: res.body.case.id, priority });
        if (priority !== 'normal') assert.equal((await admin('PATCH', `${CASES}/${res.body.case.id}`, { priority })).status, 200);
      }
      const rank = (p: string) => ['low', 'normal', 'high', 'urgent'].indexOf(p);
      const pages = async (sort: string) => {
        const seen: number[] = [];
        let cursor: string | null = null;
        do {
          const res = await admin('GET', `${CASES}?workflow_id=${sorting}&sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
          assert.equal(res.status, 200, res.text);
          seen.push(...res.body.cases.map((c: { id: number }) => c.id));
          cursor = res.body.next_cursor;
        } while (cursor);
        return seen;
      };
      const byPriority = [...made].sort((a, b) => rank(b.priority) - rank(a.priority) || b.id - a.id).map((c) => c.id);
      assert.deepEqual(await pages('-priority'), byPriority);
      assert.deepEqual(await pages('priority'), [...byPriority].reverse());
      const byId = made.map((c) => c.id);
      assert.deepEqual(await pages('created_at'), byId);
      assert.deepEqual(await pages('-created_at'), [...byId].reverse());
      // Every case but the normal ones was changed after its creation, in order of creation.
      const updated = await pages('-updated_at');
      assert.deepEqual([...updated].sort((a, b) => a - b), byId);
      assert.deepEqual(await pages('updated_at'), [...updated].reverse());
      const first = await admin('GET', `${CASES}?workflow_id=${sorting}&sort=priority&limit=2`);
      const mixed = await admin('GET', `${CASES}?workflow_id=${sorting}&limit=2&cursor=${first.body.next_cursor}`);
      assert.equal(mixed.status, 422, mixed.text);
      assert.equal(mixed.body.validation_errors[0].path, '/cursor');
    });

    it('shows an agent the workflows\' attribute declarations, and a viewer only their names and statuses', async () => {
      const asAgent = await fromDashboard(t, agent, 'GET', '/api/admin/v1/workflow_names');
      const mine = asAgent.body.workflows.find((w: { id: number }) => w.id === workflowId);
      assert.deepEqual(Object.keys(mine.attributes).sort(), Object.keys(sampleDefinition().attributes as object).sort());
      const asViewer = await fromDashboard(t, viewer, 'GET', '/api/admin/v1/workflow_names');
      assert.deepEqual(Object.keys(asViewer.body.workflows.find((w: { id: number }) => w.id === workflowId)).sort(), ['id', 'name', 'statuses']);
    });
  });
});
