/**
 * The SLA clocks of a real case (sla.md section 2) as the admin case shows them (`sla`), moved by
 * what really happens to it: a public reply (comments module) meets first_response, a
 * requester's email reply starts next_response, a pause status stops the clocks and leaving it
 * resumes them, a reopen runs resolution on from where it stopped, and a priority change
 * recomputes them under the new priority's targets. Hour-long targets on a 24x7 calendar: the
 * test reads due times, it does not wait for them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/automation-helpers.js';
import { caseIdsOf, emailDefinition, type EmailWorkflow, givenEmailWorkflow, mail, type MailApp, sendAccepted, startMailApp } from '../support/email-helpers.js';
import { uniqueEmail } from '../support/people-helpers.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, db } from '../support/test-app.js';

const HOUR = 3_600_000;
/** The policy's calendar as the admin case names it, so that due times can be shown in its time zone. */
const CALENDAR = { name: 'Always', time_zone: 'America/New_York' };
const POLICY = {
  calendar: 'Always',
  targets: { normal: { first_response: 'PT1H', next_response: 'PT1H', resolution: 'PT2H' }, urgent: { first_response: 'PT10M', resolution: 'PT1H' } },
  pause_statuses: ['Waiting on customer'],
  warn_before: 'PT5M',
};

interface Clock {
  due_at: string | null;
  state: string;
  met_at: string | null;
  breached_at: string | null;
  paused: boolean;
}

describe('SLA clocks of a case as it is worked', () => {
  let t: MailApp;
  let sink: SmtpSink;
  let w: EmailWorkflow;

  before(async () => {
    sink = await startSmtpSink();
    t = await startMailApp({ SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' });
    w = await givenEmailWorkflow(t, emailDefinition({ statuses: ['Waiting on customer'] }));
    const admin = { token: w.org.adminToken };
    assert.equal((await t.request('PUT', '/api/admin/v1/calendars/Always', { ...admin, body: { time_zone: 'America/New_York', hours: '24x7' } })).status, 200);
    const policy = await t.request('PUT', `/api/admin/v1/workflows/${w.workflowId}/sla`, { ...admin, body: POLICY });
    assert.equal(policy.status, 200, policy.text);
  });

  after(async () => {
    await t.close();
    await sink.close();
    await closeDb();
  });

  const admin = (method: string, url: string, body?: unknown) => t.request(method, url, { token: w.org.adminToken, ...(body === undefined ? {} : { body }) });

  async function sla(caseId: number): Promise<{ policy: boolean; calendar?: typeof CALENDAR } & Record<string, Clock>> {
    const res = await admin('GET', `/api/admin/v1/cases/${caseId}`);
    assert.equal(res.status, 200, res.text);
    return res.body.case.sla;
  }

  async function move(caseId: number, body: Record<string, unknown>): Promise<void> {
    const res = await admin('PATCH', `/api/admin/v1/cases/${caseId}`, body);
    assert.equal(res.status, 200, res.text);
  }

  /** A case from a requester's first message, and that message's id for the requester's replies. */
  async function emailCase(on = w): Promise<{ caseId: number; first: string; requester: string; createdAt: number }> {
    const first = `<first.${randomBytes(4).toString('hex')}@example.com>`;
    const requester = uniqueEmail('requester');
    const before = new Set(await caseIdsOf(on.workflowId));
    await sendAccepted(t, on.address, mail({ From: requester, To: on.address, Subject: 'Broken box', 'Message-ID': first }, 'It broke\n'));
    const caseId = (await caseIdsOf(on.workflowId)).find((id) => !before.has(id))!;
    const createdAt = (await db().query<{ created_at: Date }>('SELECT created_at FROM cases WHERE id = $1', [caseId])).rows[0]!.created_at.getTime();
    return { caseId, first, requester, createdAt };
  }

  /** When the timeline recorded the comment: the moment the clocks count it from. */
  async function recorded(caseId: number, comment: { body: { comment: { id: number } } }): Promise<string> {
    const { rows } = await db().query<{ created_at: Date }>("SELECT created_at FROM case_events WHERE case_id = $1 AND type = 'comment_added' AND (data->>'comment_id')::bigint = $2", [caseId, comment.body.comment.id]);
    return rows[0]!.created_at.toISOString();
  }

  const at = (ms: number) => new Date(ms).toISOString();
  const ms = (iso: string | null) => new Date(iso!).getTime();

  it('a new case runs first_response and resolution from its creation; a public reply meets first_response', async () => {
    const { caseId, createdAt } = await emailCase();
    const running = await sla(caseId);
    assert.deepEqual(running, {
      policy: true,
      calendar: CALENDAR,
      first_response: { due_at: at(createdAt + HOUR), state: 'running', met_at: null, breached_at: null, paused: false },
      resolution: { due_at: at(createdAt + 2 * HOUR), state: 'running', met_at: null, breached_at: null, paused: false },
    });
    const note = await admin('POST', `/api/admin/v1/cases/${caseId}/comments`, { body: 'Looking into it (internal)', visibility: 'internal' });
    assert.equal(note.status, 201, note.text);
    assert.equal((await sla(caseId)).first_response!.state, 'running', 'an internal note is no reply');
    const reply = await admin('POST', `/api/admin/v1/cases/${caseId}/comments`, { body: 'We are on it.', visibility: 'public' });
    assert.equal(reply.status, 201, reply.text);
    const met = (await sla(caseId)).first_response!;
    assert.deepEqual(met, { due_at: at(createdAt + HOUR), state: 'met', met_at: await recorded(caseId, reply), breached_at: null, paused: false });
  });

  it('a requester\'s email reply starts next_response, which the next public reply meets; a machine\'s mail starts none', async () => {
    const { caseId, first, requester } = await emailCase();
    assert.equal((await admin('POST', `/api/admin/v1/cases/${caseId}/comments`, { body: 'First answer', visibility: 'public' })).status, 201);
    await sendAccepted(t, w.address, mail({ From: requester, To: w.address, Subject: 'Re: Broken box', 'In-Reply-To': first, 'Auto-Submitted': 'auto-replied' }, 'I am out of office\n'));
    assert.equal((await sla(caseId)).next_response, undefined, 'an auto-reply is no requester message');
    await sendAccepted(t, w.address, mail({ From: requester, To: w.address, Subject: 'Re: Broken box', 'In-Reply-To': first }, 'Still broken\n'));
    const received = (await db().query<{ created_at: Date }>("SELECT created_at FROM case_events WHERE case_id = $1 AND type = 'email_received' AND data->>'automatic' IS NULL ORDER BY id DESC LIMIT 1", [caseId])).rows[0]!.created_at.getTime();
    assert.deepEqual((await sla(caseId)).next_response, { due_at: at(received + HOUR), state: 'running', met_at: null, breached_at: null, paused: false });
    const answer = await admin('POST', `/api/admin/v1/cases/${caseId}/comments`, { body: 'Second answer', visibility: 'public' });
    assert.deepEqual((await sla(caseId)).next_response, { due_at: at(received + HOUR), state: 'met', met_at: await recorded(caseId, answer), breached_at: null, paused: false });
  });

  it('a pause status stops the clocks (no due time) and leaving it resumes them, later by the time paused; a reopen runs resolution on from where the close stopped it', async () => {
    const { caseId, createdAt } = await emailCase();
    await move(caseId, { status: 'Waiting on customer' });
    const paused = await sla(caseId);
    assert.deepEqual(paused.resolution, { due_at: null, state: 'paused', met_at: null, breached_at: null, paused: true });
    assert.equal(paused.first_response!.state, 'paused');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await move(caseId, { status: 'Open' });
    const resumed = (await sla(caseId)).resolution!;
    assert.equal(resumed.state, 'running');
    const pausedFor = ms(resumed.due_at) - (createdAt + 2 * HOUR);
    assert.ok(pausedFor >= 300 && pausedFor < 10_000, `the due time moved by the ${pausedFor} ms paused`);

    await move(caseId, { status: 'Closed' });
    const closed = (await sla(caseId)).resolution!;
    assert.equal(closed.state, 'met');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await move(caseId, { status: 'Open' });
    const reopened = (await sla(caseId)).resolution!;
    assert.equal(reopened.state, 'running');
    assert.equal(reopened.met_at, null);
    const closedFor = ms(reopened.due_at) - ms(resumed.due_at);
    assert.ok(closedFor >= 300 && closedFor < 10_000, `resolution runs on from where it stopped: due ${closedFor} ms later, the time it was Closed`);
  });

  it('a priority change recomputes the clocks under the new priority\'s targets, from the case\'s creation', async () => {
    const { caseId, createdAt } = await emailCase();
    await move(caseId, { priority: 'urgent' });
    const urgent = await sla(caseId);
    assert.deepEqual([urgent.first_response!.due_at, urgent.resolution!.due_at], [at(createdAt + 10 * 60_000), at(createdAt + HOUR)]);
    await move(caseId, { priority: 'low' });
    assert.deepEqual(await sla(caseId), { policy: true, calendar: CALENDAR }, 'no targets at low priority');
  });

  it('a policy set after a case came in applies to it once its priority changes, from its creation: the case\'s clocks, its timers and the report', async () => {
    const later = await givenEmailWorkflow(t, emailDefinition({ statuses: ['Waiting on customer'] }), w.org);
    const { caseId, createdAt } = await emailCase(later);
    const policy = await admin('PUT', `/api/admin/v1/workflows/${later.workflowId}/sla`, POLICY);
    assert.equal(policy.status, 200, policy.text);
    assert.deepEqual(await sla(caseId), { policy: false }, 'created before the policy, its priority unchanged since');
    await move(caseId, { priority: 'urgent' });
    const urgent = await sla(caseId);
    assert.deepEqual([urgent.policy, urgent.first_response?.due_at, urgent.resolution?.due_at], [true, at(createdAt + 10 * 60_000), at(createdAt + HOUR)]);
    const timers = await eventually('the case\'s timers', async () => {
      const { rows } = await db().query<{ fire_at: Date }>('SELECT clock, kind, fire_at FROM sla_timers WHERE case_id = $1 ORDER BY fire_at', [caseId]);
      return rows.length ? rows : undefined;
    });
    assert.equal(timers[0]!.fire_at.toISOString(), at(createdAt + 5 * 60_000), `the first response's warning, warn_before ahead of its due time: ${JSON.stringify(timers)}`);
    const range = `from=${encodeURIComponent(at(createdAt - HOUR))}&to=${encodeURIComponent(at(Date.now() + HOUR))}&workflow_id=${later.workflowId}`;
    const report = await admin('GET', `/api/admin/v1/reports/sla?${range}`);
    assert.equal(report.status, 200, report.text);
    assert.equal(report.body.report.cases, 1);
  });

  it('the SLA report counts the clock periods measured (met or breached, not running) per clock and priority, with the business time to meet them', async () => {
    const started = new Date(Date.now() - HOUR).toISOString();
    const ended = new Date(Date.now() + HOUR).toISOString();
    const { caseId } = await emailCase();
    const reply = await admin('POST', `/api/admin/v1/cases/${caseId}/comments`, { body: 'Answered', visibility: 'public' });
    assert.equal(reply.status, 201, reply.text);
    const res = await admin('GET', `/api/admin/v1/reports/sla?from=${encodeURIComponent(started)}&to=${encodeURIComponent(ended)}&workflow_id=${w.workflowId}`);
    assert.equal(res.status, 200, res.text);
    const report = res.body.report;
    assert.equal(report.workflow_id, w.workflowId);
    // Every case of this spec: first_response met on three (this one and the first two tests'), running on the paused one, none at low priority.
    const rows = new Map(report.clocks.map((row: any) => [`${row.clock} ${row.priority}`, row]));
    const first: any = rows.get('first_response normal');
    assert.deepEqual([first.measured, first.met, first.breached, first.met_share], [3, 3, 0, 1]);
    assert.ok(first.business_seconds_to_meet.p50 > 0 && first.business_seconds_to_meet.p90 >= first.business_seconds_to_meet.p50, JSON.stringify(first));
    const next: any = rows.get('next_response normal');
    assert.deepEqual([next.measured, next.met], [1, 1]);
    assert.equal(rows.get('resolution normal'), undefined, 'no resolution ended: the one closed was reopened');
    assert.equal((await admin('GET', `/api/admin/v1/reports/sla?from=${encodeURIComponent(ended)}&to=${encodeURIComponent(started)}`)).status, 422);
    assert.equal((await admin('GET', `/api/admin/v1/reports/sla?to=${encodeURIComponent(ended)}`)).status, 422);
    assert.equal((await admin('GET', `/api/admin/v1/reports/sla?from=${encodeURIComponent(started)}&to=${encodeURIComponent(ended)}&workflow_id=999999999`)).status, 404);
  });
});
