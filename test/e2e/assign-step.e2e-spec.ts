/**
 * The `assign` step (casework.md, section 2): a team's name checked when the definition is
 * saved, `balanced` and `round_robin` picks made under the team's lock in the run's
 * transaction, a team without an active member, and test runs that show the pick and store
 * nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/automation-helpers.js';
import { fromDashboard, givenMember, givenOwnedOrganization, type PeopleOrganization, type Session } from '../support/people-helpers.js';
import { createToken, sampleDefinition } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const ATTRIBUTES = { customer_email: 'ada@example.com' };

describe('the assign step', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let origin: string;

  before(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } });
    origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
  });
  after(async () => {
    await t?.close();
    await sink?.close();
    await closeDb();
  });

  /** An organization of its own (balanced counts every open case of a member), a team of `size` agents, and an API token. */
  async function givenTeam(size: number, name = 'Support'): Promise<{ org: PeopleOrganization; members: Session[]; teamId: number; apiToken: string }> {
    const org = await givenOwnedOrganization(t, sink, origin);
    const members: Session[] = [];
    for (let i = 0; i < size; i += 1) members.push(await givenMember(t, sink, org, 'agent', origin));
    const team = await t.request('POST', '/api/admin/v1/teams', { token: org.adminToken, body: { name, member_ids: members.map((m) => m.userId) } });
    assert.equal(team.status, 201, team.text);
    return { org, members, teamId: team.body.team.id, apiToken: (await createToken(t, org, 'api')).secret };
  }

  async function publishedWorkflow(org: PeopleOrganization, open: unknown[]): Promise<number> {
    const created = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition({ automations: { Open: open } }) });
    assert.equal(created.status, 201, created.text);
    assert.equal((await t.request('POST', `/api/admin/v1/workflows/${created.body.workflow.id}/publish`, { token: org.adminToken })).status, 200);
    return created.body.workflow.id;
  }

  async function assignedCase(org: PeopleOrganization, caseId: number): Promise<{ assignee: { id: number } | null; team: { id: number } | null; priority: string }> {
    return eventually(`case ${caseId}'s run to end`, async () => {
      const runs = (await t.request('GET', `/api/admin/v1/cases/${caseId}/runs`, { token: org.adminToken })).body.runs as { state: string }[];
      if (!runs.length || runs.some((run) => run.state !== 'succeeded')) return undefined;
      return (await t.request('GET', `/api/admin/v1/cases/${caseId}`, { token: org.adminToken })).body.case;
    });
  }

  it('refuses a definition whose assign step names a team the organization does not have, where it names it', async () => {
    const { org } = await givenTeam(1);
    const definition = sampleDefinition({ automations: { Open: [{ if: { field: 'case.mode', equals: 'live' }, then: [{ assign: { team: 'support', strategy: 'balanced' } }, { assign: { team: 'Nobody', strategy: 'round_robin' } }] }] } });
    const res = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: definition });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.validation_errors, [{ path: '/automations/Open/0/then/1/assign/team', error: 'the organization has no team named "Nobody"' }]);
    const badArguments = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition({ automations: { Open: [{ assign: { team: 'Support', strategy: 'fastest' } }] } }) });
    assert.equal(badArguments.status, 422, badArguments.text);
    assert.equal(badArguments.body.validation_errors[0].path, '/automations/Open/0/assign/strategy');
  });

  it('balanced: 20 runs assigning at once spread the cases evenly (counts differ by at most 1)', async () => {
    const { org, members, apiToken } = await givenTeam(3);
    const workflowId = await publishedWorkflow(org, [{ assign: { team: 'Support', strategy: 'balanced', priority: 'high' } }]);
    const opened = await Promise.all(Array.from({ length: 20 }, () => t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: ATTRIBUTES } })));
    const cases = await Promise.all(opened.map((res) => assignedCase(org, res.body.case.id)));
    const counts = members.map((m) => cases.filter((c) => c.assignee?.id === m.userId).length);
    assert.equal(counts.reduce((a, b) => a + b, 0), 20, `every case is assigned: ${JSON.stringify(counts)}`);
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `an even spread: ${JSON.stringify(counts)}`);
    assert.ok(cases.every((c) => c.priority === 'high'));
    const events = (await t.request('GET', `/api/admin/v1/cases/${opened[0]!.body.case.id}/timeline`, { token: org.adminToken })).body.events as { type: string; by: { type: string } }[];
    assert.deepEqual(events.filter((e) => e.type === 'assigned').map((e) => e.by.type), ['automation']);
  });

  it('round_robin takes the active members in turn; a member who may no longer work cases is skipped', async () => {
    const { org, members, apiToken } = await givenTeam(3);
    const workflowId = await publishedWorkflow(org, [{ assign: { team: 'Support', strategy: 'round_robin' } }]);
    const demoted = await fromDashboard(t, org.owner, 'PATCH', `/api/admin/v1/users/${members[2]!.userId}`, { role: 'viewer' });
    assert.equal(demoted.status, 200, demoted.text);
    const picked: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: ATTRIBUTES } });
      picked.push((await assignedCase(org, res.body.case.id)).assignee!.id);
    }
    const [a, b] = [members[0]!.userId, members[1]!.userId];
    assert.deepEqual(picked, [a, b, a, b]);
  });

  it('the member the step picks is mailed that the case is theirs, once', async () => {
    const { org, members, apiToken } = await givenTeam(1);
    const workflowId = await publishedWorkflow(org, [{ assign: { team: 'Support', strategy: 'balanced' } }]);
    const res = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: ATTRIBUTES } });
    assert.equal(res.status, 201, res.text);
    assert.equal((await assignedCase(org, res.body.case.id)).assignee!.id, members[0]!.userId);
    const told = () => sink.mails.filter((m) => m.to.includes(members[0]!.email) && /was assigned to you/.test(m.parsed.text ?? ''));
    const [mail] = await eventually('the assignment mail', async () => (told().length ? told() : undefined));
    assert.match(mail!.parsed.text ?? '', new RegExp(`Case #${res.body.case.id} was assigned to you \\(team Support\\)`));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(told().length, 1);
  });

  it('a team with no active member leaves the case unassigned, with a note on its timeline', async () => {
    const { org, members, apiToken } = await givenTeam(1);
    await fromDashboard(t, org.owner, 'PATCH', `/api/admin/v1/users/${members[0]!.userId}`, { role: 'viewer' });
    const workflowId = await publishedWorkflow(org, [{ assign: { team: 'Support', strategy: 'balanced', priority: 'urgent' } }]);
    const res = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: ATTRIBUTES } });
    const c = await assignedCase(org, res.body.case.id);
    assert.deepEqual([c.assignee, c.team, c.priority], [null, null, 'normal']);
    const events = (await t.request('GET', `/api/admin/v1/cases/${res.body.case.id}/timeline`, { token: org.adminToken })).body.events as Record<string, unknown>[];
    const note = events.find((e) => e.type === 'assign')!;
    assert.deepEqual([note.team, note.assigned, note.reason], ['Support', null, 'the team has no active member who may work cases']);
    assert.ok(!events.some((e) => e.type === 'assigned'));
  });

  it('a test run shows whom the step would pick and stores nothing: the next real run picks the same member', async () => {
    const { org, members, apiToken } = await givenTeam(2);
    const workflowId = await publishedWorkflow(org, [{ assign: { team: 'Support', strategy: 'round_robin' } }]);
    const before = (await db().query(`SELECT count(*)::int AS n FROM cases WHERE organization_id = $1`, [org.id])).rows[0].n;
    for (let i = 0; i < 2; i += 1) {
      const tested = await t.request('POST', `/api/admin/v1/workflows/${workflowId}/test_runs`, { token: org.adminToken, body: { status: 'Open', attributes: ATTRIBUTES, definition: 'published' } });
      assert.equal(tested.status, 200, tested.text);
      const step = tested.body.test_run.steps[0];
      assert.equal(step.outcome, 'assign');
      assert.deepEqual(step.assigned, { id: members[0]!.userId, email: members[0]!.email });
    }
    assert.equal((await db().query(`SELECT count(*)::int AS n FROM cases WHERE organization_id = $1`, [org.id])).rows[0].n, before);
    const { rows } = await db().query(`SELECT count(*)::int AS n FROM team_members WHERE organization_id = $1 AND last_assigned_at IS NOT NULL`, [org.id]);
    assert.equal(rows[0].n, 0, 'no member was marked as assigned');
    const res = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: ATTRIBUTES } });
    assert.equal((await assignedCase(org, res.body.case.id)).assignee!.id, members[0]!.userId);
  });
});
