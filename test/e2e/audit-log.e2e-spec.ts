/**
 * The audit log (people.md §3) through HTTP: every change made through the admin and operator
 * API writes exactly one entry naming its action, actor and target, in the change's own
 * transaction (a refused change, or one whose transaction rolls back at COMMIT, writes none);
 * entries are read newest first, then after a cursor oldest first, filtered by actor, action and
 * target; no entry holds a secret, a token or a webhook URL; retention keeps them audit_days
 * (default 365, never fewer than 90). On a database of its own: one test adds a trigger.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DigestPass } from '../../src/modules/reporting/application/digest-pass.service.js';
import { PurgePass } from '../../src/modules/retention/application/purge-pass.service.js';
import { AUDIT, auditAfter, FROM_THE_START, readAudit } from '../support/audit-helpers.js';
import { eventually, type IsolatedDatabase, startIsolatedApp } from '../support/automation-helpers.js';
import { emailDefinition } from '../support/email-helpers.js';
import { formDefinition, postForm, validFields } from '../support/form-helpers.js';
import { createOrganization, operatorToken, type Organization, sampleDefinition } from '../support/scenario.js';
import { asSession, fromDashboard, givenOwnedOrganization, givenOwner, linkMailedTo, signInWith, uniqueEmail } from '../support/people-helpers.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import type { InjectResult, TestApp } from '../support/test-app.js';

const OPERATOR = { type: 'operator', id: 'operator', name: 'operator' };

interface Actor {
  type: string;
  id: string;
  name: string;
}

/** One audited request: what it must answer, and the one entry it must write. */
interface Row {
  what: string;
  action: string;
  /** The target's type and, once known, its id. */
  target: () => { type: string; id: string };
  /** Who sends it: the organization's admin token unless named. */
  actor?: 'operator' | 'owner';
  send: () => Promise<InjectResult>;
  status: number;
  /** Checks of the entry's summary beyond action, actor and target. */
  summary?: (summary: Record<string, any>) => void;
}

describe('audit log', () => {
  let t: TestApp;
  let database: IsolatedDatabase;
  let close: () => Promise<void>;
  let sink: SmtpSink;
  let org: Organization;
  let admin: Actor;
  /** Every secret, token, address and URL the test made: no entry may hold any. */
  const secrets: string[] = [];

  const read = (query = '', token = org.adminToken) => readAudit(t, token, query);
  /**
   * What was recorded after `cursor`, before a change made now (a secret named `marker`), once
   * that change is listed: an entry written before it would be listed by then, where a read
   * right after the changes may not list one yet.
   */
  const entriesUpToMarker = async (cursor: string, marker: string) => {
    assert.equal((await t.request('PUT', `/api/admin/v1/secrets/${marker}`, { token: org.adminToken, body: { value: 'v' } })).status, 200);
    const page = await eventually(`the ${marker} entry`, async () => {
      const since = await read(`?after=${cursor}&limit=200`);
      return since.entries.some((e) => e.target.id === marker) ? since : undefined;
    });
    assert.equal(page.entries.at(-1)!.target.id, marker, 'the marker is the last entry');
    return page.entries.slice(0, -1).map((e) => `${e.action} ${e.target.type}:${e.target.id}`);
  };

  before(async () => {
    sink = await startSmtpSink();
    // A day between scheduled purge passes: the retention test runs the only pass, so none holds its rows.
    ({ t, database, close } = await startIsolatedApp({ SMTP_RELAY_URL: sink.url, RETENTION_PURGE_INTERVAL_MS: '86400000' }));
    org = await createOrganization(t);
    secrets.push(org.adminToken);
    const tokens = await t.request('GET', '/api/admin/v1/tokens', { token: org.adminToken });
    const initial = tokens.body.tokens[0];
    admin = { type: 'token', id: String(initial.id), name: initial.name };
  });

  after(async () => {
    await close();
    await sink.close();
  });

  it('a new organization starts with its creation and its first admin token, both by the operator', async () => {
    await auditAfter(t, org.adminToken, FROM_THE_START, 2);
    const { entries } = await read();
    assert.deepEqual(
      entries.map((e) => [e.action, e.actor, e.target]),
      [
        ['token.created', OPERATOR, { type: 'token', id: admin.id }],
        ['organization.created', OPERATOR, { type: 'organization', id: String(org.id) }],
      ],
    );
    assert.equal(entries[0].summary.name, 'Initial admin token');
  });

  it('every audited change through the admin and operator API writes exactly one entry with its action, actor and target', async () => {
    const ids: Record<string, string> = {};
    const keep = (key: string, value: unknown) => {
      ids[key] = String(value);
    };
    const as = (method: string, path: string, body?: unknown, token = org.adminToken) => t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
    const operator = (path: string) => as('POST', path, undefined, operatorToken());
    const remember = async (res: Promise<InjectResult>, found: (body: any) => void) => {
      const answer = await res;
      if (answer.status < 300 && answer.body) found(answer.body);
      return answer;
    };
    const target = (type: string, key: string) => () => ({ type, id: ids[key]! });
    const receiver = 'http://127.0.0.1:9/hooks/receiver-key-5b1f?auth=subscription-url-secret';
    secrets.push(receiver, 'crm-secret-one', 'crm-secret-two', 'gh-verification-secret', 'subscription-url-secret');

    const rows: Row[] = [
      { what: 'create a token', action: 'token.created', target: target('token', 'token'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/tokens', { name: 'ci', scope: 'api' }), (b) => { keep('token', b.token.id); secrets.push(b.secret); }),
        summary: (s) => assert.deepEqual(s, { name: 'ci', scope: 'api' }) },
      { what: 'delete a token', action: 'token.deleted', target: target('token', 'token'), status: 204, send: () => as('DELETE', `/api/admin/v1/tokens/${ids.token}`) },
      { what: 'create a workflow', action: 'workflow.created', target: target('workflow', 'direct'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/workflows', sampleDefinition()), (b) => keep('direct', b.workflow.id)) },
      { what: 'replace its draft', action: 'workflow.draft_updated', target: target('workflow', 'direct'), status: 200,
        send: () => as('PUT', `/api/admin/v1/workflows/${ids.direct}`, sampleDefinition({ name: 'Renamed' })),
        summary: (s) => assert.deepEqual(s, { changed: ['/name'] }) },
      { what: 'publish it', action: 'workflow.published', target: target('workflow', 'direct'), status: 200,
        send: () => as('POST', `/api/admin/v1/workflows/${ids.direct}/publish`), summary: (s) => assert.deepEqual(s, { version: 1, new_version: true }) },
      { what: 'test-run it, sending its requests', action: 'workflow.test_run_sent', target: target('workflow', 'direct'), status: 200,
        send: () => as('POST', `/api/admin/v1/workflows/${ids.direct}/test_runs`, { send_requests: true, status: 'Triage', attributes: { customer_email: 'ada@example.com' } }),
        summary: (s) => assert.deepEqual(s, { definition: 'draft', secrets: 'read' }) },
      { what: 'generate its webhook URL', action: 'webhook_url.created', target: target('workflow', 'direct'), status: 201,
        send: () => remember(as('POST', `/api/admin/v1/workflows/${ids.direct}/webhook`), (b) => secrets.push(b.webhook.url, b.webhook.token)) },
      { what: 'rotate its webhook URL (operator)', action: 'webhook_url.rotated', target: target('workflow', 'direct'), actor: 'operator', status: 200,
        send: () => remember(operator(`/api/operator/v1/workflows/${ids.direct}/webhook/rotate`), (b) => secrets.push(b.webhook.url, b.webhook.token)) },
      { what: 'require a webhook signature', action: 'webhook_verification.set', target: target('workflow', 'direct'), status: 200,
        send: () => as('PUT', `/api/admin/v1/workflows/${ids.direct}/webhook/verification`, { scheme: 'github', secret: 'gh-verification-secret' }),
        summary: (s) => assert.deepEqual(s, { changed: { scheme: { from: null, to: 'github' } } }) },
      { what: 'stop requiring it', action: 'webhook_verification.deleted', target: target('workflow', 'direct'), status: 204,
        send: () => as('DELETE', `/api/admin/v1/workflows/${ids.direct}/webhook/verification`) },
      { what: 'change the draft again', action: 'workflow.draft_updated', target: target('workflow', 'direct'), status: 200,
        send: () => as('PUT', `/api/admin/v1/workflows/${ids.direct}`, sampleDefinition({ name: 'Renamed again', sensitive_data: true })),
        summary: (s) => assert.deepEqual(s, { changed: ['/name', '/sensitive_data'] }) },
      { what: 'restore version 1 into the draft', action: 'workflow.restored', target: target('workflow', 'direct'), status: 200,
        send: () => as('POST', `/api/admin/v1/workflows/${ids.direct}/versions/1/restore`),
        summary: (s) => assert.deepEqual(s, { version: 1, changed: ['/name', '/sensitive_data'] }) },
      { what: 'unpublish it', action: 'workflow.unpublished', target: target('workflow', 'direct'), status: 200,
        send: () => as('POST', `/api/admin/v1/workflows/${ids.direct}/unpublish`) },
      { what: 'create an email workflow', action: 'workflow.created', target: target('workflow', 'email'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/workflows', emailDefinition()), (b) => keep('email', b.workflow.id)) },
      { what: 'publish the email workflow', action: 'workflow.published', target: target('workflow', 'email'), status: 200,
        send: () => as('POST', `/api/admin/v1/workflows/${ids.email}/publish`) },
      { what: 'generate its inbound address', action: 'email_address.created', target: target('workflow', 'email'), status: 201,
        send: () => remember(as('POST', `/api/admin/v1/workflows/${ids.email}/email_address`), (b) => secrets.push(b.email_address.address)) },
      { what: 'rotate its inbound address (operator)', action: 'email_address.rotated', target: target('workflow', 'email'), actor: 'operator', status: 200,
        send: () => remember(operator(`/api/operator/v1/workflows/${ids.email}/email_address/rotate`), (b) => secrets.push(b.email_address.address)) },
      { what: 'create a ticketing workflow', action: 'workflow.created', target: target('workflow', 'form'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/workflows', formDefinition()), (b) => keep('form', b.workflow.id)) },
      { what: 'publish the ticketing workflow', action: 'workflow.published', target: target('workflow', 'form'), status: 200,
        send: () => as('POST', `/api/admin/v1/workflows/${ids.form}/publish`) },
      { what: 'generate its form URL', action: 'form.created', target: target('workflow', 'form'), status: 201,
        send: () => remember(as('POST', `/api/admin/v1/workflows/${ids.form}/form`), (b) => { secrets.push(b.form.url); keep('formPath', new URL(b.form.url).pathname); }) },
      { what: 'rotate its form URL (operator)', action: 'form.rotated', target: target('workflow', 'form'), actor: 'operator', status: 200,
        send: () => remember(operator(`/api/operator/v1/workflows/${ids.form}/form/rotate`), (b) => { secrets.push(b.form.url); keep('formPath', new URL(b.form.url).pathname); }) },
      { what: 'create a secret', action: 'secret.created', target: () => ({ type: 'secret', id: 'CRM_KEY' }), status: 200,
        send: () => as('PUT', '/api/admin/v1/secrets/CRM_KEY', { value: 'crm-secret-one' }) },
      { what: 'replace it', action: 'secret.replaced', target: () => ({ type: 'secret', id: 'CRM_KEY' }), status: 200,
        send: () => as('PUT', '/api/admin/v1/secrets/CRM_KEY', { value: 'crm-secret-two' }) },
      { what: 'delete it', action: 'secret.deleted', target: () => ({ type: 'secret', id: 'CRM_KEY' }), status: 204, send: () => as('DELETE', '/api/admin/v1/secrets/CRM_KEY') },
      { what: 'create a subscription', action: 'subscription.created', target: target('subscription', 'subscription'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/subscriptions', { url: receiver, events: ['case.created'] }), (b) => { keep('subscription', b.subscription.id); secrets.push(b.signing_secret); }),
        summary: (s) => assert.deepEqual(s, { events: ['case.created'], workflow_ids: null }) },
      { what: 'retry a delivery of it', action: 'subscription.delivery_retried', target: target('subscription', 'subscription'), status: 202,
        send: async () => {
          assert.equal((await postForm(t, ids.formPath!, validFields())).status, 303, 'a case for the subscription to deliver');
          const [delivery] = await eventually('a delivery to retry', async () => {
            const log = await t.request('GET', `/api/admin/v1/subscriptions/${ids.subscription}/deliveries`, { token: org.adminToken });
            return log.body.deliveries.length > 0 ? log.body.deliveries : undefined;
          });
          keep('delivery', delivery.delivery_id);
          return as('POST', `/api/admin/v1/subscriptions/${ids.subscription}/deliveries/${ids.delivery}/retry`);
        },
        summary: (s) => assert.deepEqual(s, { delivery_id: Number(ids.delivery) }) },
      { what: 'change its events and URL', action: 'subscription.updated', target: target('subscription', 'subscription'), status: 200,
        send: () => as('PATCH', `/api/admin/v1/subscriptions/${ids.subscription}`, { events: ['case.closed'], url: `${receiver}&v=2` }),
        summary: (s) => assert.deepEqual(s, { changed: { events: { from: ['case.created'], to: ['case.closed'] }, url: 'changed' } }) },
      { what: 'enable it', action: 'subscription.enabled', target: target('subscription', 'subscription'), status: 200,
        send: () => as('POST', `/api/admin/v1/subscriptions/${ids.subscription}/enable`) },
      { what: 'rotate its signing secret', action: 'subscription.secret_rotated', target: target('subscription', 'subscription'), status: 200,
        send: () => remember(as('POST', `/api/admin/v1/subscriptions/${ids.subscription}/rotate-secret`), (b) => secrets.push(b.signing_secret)) },
      { what: 'recover its failed deliveries', action: 'subscription.recovered', target: target('subscription', 'subscription'), status: 202,
        send: () => as('POST', `/api/admin/v1/subscriptions/${ids.subscription}/recover`, { since: '2026-01-01T00:00:00Z' }),
        summary: (s) => assert.deepEqual(s, { since: '2026-01-01T00:00:00.000Z', recovering: 0 }) },
      { what: 'delete it', action: 'subscription.deleted', target: target('subscription', 'subscription'), status: 204,
        send: () => as('DELETE', `/api/admin/v1/subscriptions/${ids.subscription}`) },
      { what: 'create a digest', action: 'digest.created', target: target('digest', 'digest'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/digests', { schedule: 'daily', hour_utc: 6, recipients: ['ops@acme.example'] }), (b) => keep('digest', b.digest.id)) },
      { what: 'change its hour', action: 'digest.updated', target: target('digest', 'digest'), status: 200,
        send: () => as('PATCH', `/api/admin/v1/digests/${ids.digest}`, { hour_utc: 7 }),
        summary: (s) => assert.deepEqual(s, { changed: { hour_utc: { from: 6, to: 7 } } }) },
      { what: 'send it now, once its recipient confirmed', action: 'digest.send_requested', target: target('digest', 'digest'), status: 202,
        send: async () => {
          await t.app.get(DigestPass).run();
          const invitation = await eventually('the digest\'s confirmation mail', async () => sink.mails.find((m) => m.to.includes('ops@acme.example')));
          const confirm = /https?:\/\/[^/\s]+(\/digests\/confirm\/[A-Za-z0-9_-]+)/.exec(invitation.parsed.text ?? '')![1]!;
          assert.equal((await postForm(t, confirm, '')).status, 200, 'confirming is no audited change');
          return as('POST', `/api/admin/v1/digests/${ids.digest}/send`);
        },
        summary: (s) => assert.deepEqual(Object.keys(s).sort(), ['period_end', 'period_start']) },
      { what: 'delete it', action: 'digest.deleted', target: target('digest', 'digest'), status: 204, send: () => as('DELETE', `/api/admin/v1/digests/${ids.digest}`) },
      { what: 'create a team', action: 'team.created', target: target('team', 'team'), status: 201,
        send: () => remember(as('POST', '/api/admin/v1/teams', { name: 'Audited', member_ids: [] }), (b) => keep('team', b.team.id)),
        summary: (s) => assert.deepEqual(s, { name: 'Audited', member_ids: [] }) },
      { what: 'rename it', action: 'team.changed', target: target('team', 'team'), status: 200,
        send: () => as('PATCH', `/api/admin/v1/teams/${ids.team}`, { name: 'Audited EU' }),
        summary: (s) => assert.deepEqual(s, { name: { from: 'Audited', to: 'Audited EU' } }) },
      { what: 'work a case: give it to the team, raise its priority', action: 'case.changed', target: target('case', 'case'), status: 200,
        send: async () => {
          keep('case', (await as('GET', '/api/admin/v1/cases?limit=1')).body.cases[0].id);
          return as('PATCH', `/api/admin/v1/cases/${ids.case}`, { team_id: Number(ids.team), priority: 'high' });
        },
        summary: (s) => assert.deepEqual(s, { team: { from: null, to: Number(ids.team) }, priority: { from: 'normal', to: 'high' } }) },
      { what: 'delete the team', action: 'team.deleted', target: target('team', 'team'), status: 204, send: () => as('DELETE', `/api/admin/v1/teams/${ids.team}`),
        summary: (s) => assert.deepEqual(s, { name: 'Audited EU', cases: 1 }) },
      { what: 'link two cases', action: 'case.linked', target: target('case', 'caseA'), status: 201,
        send: async () => {
          assert.equal((await postForm(t, ids.formPath!, validFields())).status, 303, 'a second case of the form');
          const [b, a] = (await as('GET', `/api/admin/v1/cases?workflow_id=${ids.form}`)).body.cases;
          keep('caseA', a.id);
          keep('caseB', b.id);
          return remember(as('POST', `/api/admin/v1/cases/${ids.caseA}/links`, { case_id: b.id, type: 'relates' }), (body) => keep('link', body.link.id));
        },
        summary: (s) => assert.deepEqual(s, { link_id: Number(ids.link), case_id: Number(ids.caseB), type: 'relates' }) },
      { what: 'unlink them', action: 'case.unlinked', target: target('case', 'caseB'), status: 204,
        send: () => as('DELETE', `/api/admin/v1/cases/${ids.caseB}/links/${ids.link}`),
        summary: (s) => assert.deepEqual(s, { link_id: Number(ids.link), case_id: Number(ids.caseA), type: 'relates' }) },
      { what: 'merge one into the other', action: 'case.merged', target: target('case', 'caseA'), status: 200,
        send: () => as('POST', `/api/admin/v1/cases/${ids.caseA}/merge`, { into: Number(ids.caseB) }),
        summary: (s) => assert.deepEqual(s, { into: Number(ids.caseB) }) },
      { what: 'change retention (owner)', action: 'retention.updated', target: () => ({ type: 'retention', id: String(org.id) }), actor: 'owner', status: 200,
        send: () => fromDashboard(t, owner, 'PUT', '/api/admin/v1/retention', { runs_days: 10, audit_days: 400 }),
        summary: (s) => assert.deepEqual(s, { changed: { runs_days: { from: null, to: 10 }, audit_days: { from: null, to: 400 } } }) },
    ];

    const owner = await givenOwner(t, org.id);
    const ownerActor: Actor = { type: 'user', id: String(owner.userId), name: owner.email };
    let cursor = await eventually('the owner\'s sign-in entry', async () => {
      const newest = await read();
      return newest.entries[0]?.action === 'session.signed_in' ? newest.next_cursor : undefined;
    });
    for (const row of rows) {
      const res = await row.send();
      assert.equal(res.status, row.status, `${row.what}: ${res.text}`);
      const page = await auditAfter(t, org.adminToken, cursor, 1);
      assert.equal(page.entries.length, 1, `${row.what}: ${JSON.stringify(page.entries)}`);
      const [entry] = page.entries;
      assert.equal(entry.action, row.action, row.what);
      assert.deepEqual(entry.actor, row.actor === 'operator' ? OPERATOR : row.actor === 'owner' ? ownerActor : admin, row.what);
      assert.deepEqual(entry.target, row.target(), row.what);
      assert.equal(typeof entry.address, 'string', row.what);
      row.summary?.(entry.summary);
      assert.notEqual(page.next_cursor, cursor, row.what);
      cursor = page.next_cursor;
    }
  });

  it('people\'s changes, sign-ins, failed sign-ins and sign-outs each write one entry, naming the signed-in person, never the link', async () => {
    const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    const people = await givenOwnedOrganization(t, sink, origin);
    const owner: Actor = { type: 'user', id: String(people.owner.userId), name: people.owner.email };
    const readPeople = async (query = '') => (await read(query, people.adminToken));
    const userTarget = (id: number | string) => ({ type: 'user', id: String(id) });

    const newest = await eventually('the sign-in\'s entry', async () => {
      const { entries } = await readPeople();
      return entries[0]?.action === 'session.signed_in' ? entries : undefined;
    });
    const start = newest.slice(0, 2).map((e) => [e.action, e.actor, e.target, e.summary]);
    assert.deepEqual(start, [
      ['session.signed_in', owner, userTarget(owner.id), { method: 'email_link' }],
      ['user.invited', OPERATOR, userTarget(owner.id), { email: people.owner.email, role: 'owner' }],
    ]);

    const links: string[] = [];
    const memberEmail = uniqueEmail('member');
    let member = { id: '', cookie: '' };
    const member$ = (): Actor => ({ type: 'user', id: member.id, name: memberEmail });
    const rows: { what: string; action: string; actor: () => Actor; target: () => { type: string; id: string }; summary: Record<string, unknown>; send: () => Promise<number> }[] = [
      { what: 'invite a member', action: 'user.invited', actor: () => owner, target: () => userTarget(member.id), summary: { email: memberEmail, role: 'viewer' },
        send: async () => {
          const res = await asSession(t, people.owner, origin, 'POST', '/api/admin/v1/users', { email: memberEmail, role: 'viewer' });
          member.id = String(res.body.user?.id);
          return res.status;
        } },
      { what: 'change the member\'s role', action: 'user.role_changed', actor: () => owner, target: () => userTarget(member.id), summary: { role: { from: 'viewer', to: 'editor' } },
        send: async () => (await asSession(t, people.owner, origin, 'PATCH', `/api/admin/v1/users/${member.id}`, { role: 'editor' })).status },
      { what: 'the member signs in with the invitation', action: 'session.signed_in', actor: member$, target: () => userTarget(member.id), summary: { method: 'email_link' },
        send: async () => {
          links.push(await linkMailedTo(sink, memberEmail));
          const { response, cookie } = await signInWith(t, links[0]!, origin);
          member = { ...member, cookie: cookie ?? '' };
          return response.status;
        } },
      { what: 'the used link again', action: 'session.sign_in_failed', actor: member$, target: () => userTarget(member.id), summary: { method: 'email_link', reason: 'used', count: 1 },
        send: async () => (await signInWith(t, links[0]!, origin)).response.status },
      { what: 'an expired link', action: 'session.sign_in_failed', actor: member$, target: () => userTarget(member.id), summary: { method: 'email_link', reason: 'expired', count: 1 },
        send: async () => {
          assert.equal((await t.request('POST', '/auth/email', { body: { email: memberEmail } })).status, 202);
          links.push(await linkMailedTo(sink, memberEmail, new Set(links)));
          await database.pool.query(`UPDATE sign_in_links SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND used_at IS NULL`, [member.id]);
          return (await signInWith(t, links[1]!, origin)).response.status;
        } },
      { what: 'the member signs out', action: 'session.signed_out', actor: member$, target: () => userTarget(member.id), summary: {},
        send: async () => (await t.request('POST', '/auth/sign_out', { headers: { cookie: member.cookie, origin } })).status },
      { what: 'delete the member', action: 'user.deleted', actor: () => owner, target: () => userTarget(member.id), summary: { email: memberEmail, role: 'editor' },
        send: async () => (await asSession(t, people.owner, origin, 'DELETE', `/api/admin/v1/users/${member.id}`)).status },
    ];
    const statuses = [201, 200, 303, 404, 404, 204, 204];

    let cursor = (await readPeople()).next_cursor;
    for (const [i, row] of rows.entries()) {
      assert.equal(await row.send(), statuses[i], row.what);
      const page = await auditAfter(t, people.adminToken, cursor, 1);
      assert.equal(page.entries.length, 1, `${row.what}: ${JSON.stringify(page.entries)}`);
      const [entry] = page.entries;
      assert.deepEqual([entry.action, entry.actor, entry.target, entry.summary], [row.action, row.actor(), row.target(), row.summary], row.what);
      assert.equal(typeof entry.address, 'string', row.what);
      cursor = page.next_cursor;
    }
    assert.equal(links.length, 2);
    const { rows: stored } = await database.pool.query(`SELECT row_to_json(a)::text AS json FROM audit_entries a WHERE organization_id = $1`, [people.id]);
    for (const link of links) {
      const token = link.split('/').pop()!;
      assert.ok(!stored.some((r: { json: string }) => r.json.includes(token)), 'no entry holds a sign-in link\'s token');
    }
    const viewer = await asSession(t, people.owner, origin, 'GET', AUDIT);
    assert.equal(viewer.status, 200, 'an owner reads the audit log');
  });

  it('no entry holds a secret value, a token, an inbound address or a webhook, form or subscription URL', async () => {
    assert.ok(secrets.length > 15, 'the table above ran first');
    const { rows } = await database.pool.query(`SELECT row_to_json(a)::text AS json FROM audit_entries a`);
    const stored = rows.map((r: { json: string }) => r.json).join('\n');
    const answered = JSON.stringify((await read('?limit=200')).entries);
    for (const secret of secrets) {
      assert.ok(!stored.includes(secret), `an entry stores ${secret}`);
      assert.ok(!answered.includes(secret), `an answer shows ${secret}`);
    }
  });

  it('a change refused by validation writes no entry', async () => {
    const owner = await givenOwner(t, org.id);
    const cursor = await eventually('the owner\'s sign-in entry', async () => {
      const newest = await read();
      return newest.entries[0]?.action === 'session.signed_in' && newest.entries[0].actor.id === String(owner.userId) ? newest.next_cursor : undefined;
    });
    const refused = [
      await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition({ statuses: 'not a list' }) }),
      await fromDashboard(t, owner, 'PUT', '/api/admin/v1/retention', { audit_days: 89 }),
      await t.request('PUT', '/api/admin/v1/secrets/lower_case', { token: org.adminToken, body: { value: 'x' } }),
      await t.request('POST', '/api/admin/v1/tokens', { token: org.adminToken, body: { name: '', scope: 'api' } }),
      await t.request('DELETE', '/api/admin/v1/secrets/NOT_THERE', { token: org.adminToken }),
      await t.request('DELETE', '/api/admin/v1/digests/999999', { token: org.adminToken }),
      await t.request('DELETE', '/api/admin/v1/subscriptions/999999', { token: org.adminToken }),
    ];
    assert.deepEqual(refused.map((r) => r.status), [422, 422, 422, 422, 404, 404, 404]);
    assert.deepEqual(await entriesUpToMarker(cursor, 'REFUSED_MARKER'), []);
  });

  it('a change whose transaction rolls back at COMMIT leaves neither the change nor its entry', async () => {
    // A deferred constraint trigger fails the transaction at COMMIT, after the entry was written in it.
    await database.pool.query(`
      CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'doomed secret'; END $$;
      CREATE CONSTRAINT TRIGGER refuse_doomed AFTER INSERT ON organization_secrets DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.name = 'DOOMED') EXECUTE FUNCTION refuse_doomed();`);
    const { next_cursor: cursor } = await read();
    const res = await t.request('PUT', '/api/admin/v1/secrets/DOOMED', { token: org.adminToken, body: { value: 'doomed-value' } });
    assert.ok(res.status >= 500, res.text);
    const listed = await t.request('GET', '/api/admin/v1/secrets', { token: org.adminToken });
    assert.ok(!listed.body.secrets.some((s: { name: string }) => s.name === 'DOOMED'), 'the secret is not stored');
    assert.deepEqual(await entriesUpToMarker(cursor, 'DOOMED_MARKER'), []);
    const { rows } = await database.pool.query(`SELECT count(*)::int AS n FROM audit_entries WHERE target_id = 'DOOMED'`);
    assert.equal(rows[0].n, 0);
  });

  describe('reading', () => {
    it('newest first without a cursor, the entries recorded since oldest first after one, each page bounded by limit', async () => {
      const newest = await read('?limit=3');
      assert.equal(newest.entries.length, 3);
      const ids = newest.entries.map((e) => BigInt(e.id));
      assert.ok(ids[0]! > ids[1]! && ids[1]! > ids[2]!, 'newest first');
      assert.deepEqual((await read(`?after=${newest.next_cursor}`)).entries, [], 'nothing recorded since the newest');
      assert.equal((await read(`?after=${newest.next_cursor}`)).next_cursor, newest.next_cursor, 'the cursor stays when nothing is new');

      for (const name of ['A_ONE', 'A_TWO', 'A_THREE']) {
        assert.equal((await t.request('PUT', `/api/admin/v1/secrets/${name}`, { token: org.adminToken, body: { value: 'v' } })).status, 200);
      }
      const first = await auditAfter(t, org.adminToken, newest.next_cursor, 2, '&limit=2');
      assert.deepEqual(first.entries.map((e) => e.target.id), ['A_ONE', 'A_TWO'], 'oldest first after a cursor');
      const second = await auditAfter(t, org.adminToken, first.next_cursor, 1, '&limit=2');
      assert.deepEqual(second.entries.map((e) => e.target.id), ['A_THREE']);
    });

    it('lists an entry whose change commits late after any cursor handed out meanwhile, never behind it', async () => {
      const start = (await read()).next_cursor;
      // A change that wrote its entry (taking the lower id) and has not committed yet, as a slow one would.
      const slow = await database.pool.connect();
      try {
        await slow.query('BEGIN');
        await slow.query(
          `INSERT INTO audit_entries (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, summary)
           VALUES ($1, 'operator', 'operator', 'operator', 'secret.changed', 'secret', 'LATE', '{}')`,
          [org.id],
        );
        assert.equal((await t.request('PUT', '/api/admin/v1/secrets/PROMPT', { token: org.adminToken, body: { value: 'v' } })).status, 200);
        const meanwhile = await read(`?after=${start}`);
        assert.deepEqual(meanwhile.entries.map((e) => e.target.id), [], 'nothing is listed past an entry that may still commit');
        assert.deepEqual((await read()).entries.map((e) => e.target.id).filter((id) => id === 'PROMPT' || id === 'LATE'), []);
        await slow.query('COMMIT');
        const since = await auditAfter(t, org.adminToken, meanwhile.next_cursor, 2);
        assert.deepEqual(since.entries.map((e) => e.target.id), ['LATE', 'PROMPT'], 'both, in the order their transactions began');
      } finally {
        await slow.query('ROLLBACK').catch(() => undefined);
        slow.release();
      }
    });

    it('filters by actor, action and target, alone or together', async () => {
      const all = (await read('?limit=200')).entries;
      const check = async (query: string, keep: (e: any) => boolean) => {
        const expected = all.filter(keep).map((e) => e.id);
        assert.ok(expected.length > 0, `${query} matches something`);
        assert.deepEqual((await read(`?limit=200&${query}`)).entries.map((e) => e.id), expected, query);
      };
      await check('actor=operator:operator', (e) => e.actor.type === 'operator');
      await check(`actor=token:${admin.id}`, (e) => e.actor.type === 'token' && e.actor.id === admin.id);
      await check('action=workflow.published', (e) => e.action === 'workflow.published');
      await check('target=secret', (e) => e.target.type === 'secret');
      await check('target=secret:A_TWO', (e) => e.target.type === 'secret' && e.target.id === 'A_TWO');
      await check(`action=secret.created&actor=token:${admin.id}&target=secret:A_ONE`, (e) => e.action === 'secret.created' && e.target.id === 'A_ONE');
      assert.deepEqual((await read('?action=token.created&actor=token:999999')).entries, []);
    });

    it('an organization sees its own entries only', async () => {
      const other = await createOrganization(t);
      // Listed once every transaction older than their changes ended (auditAfter): any of the machine's may still run.
      const theirs = (await auditAfter(t, other.adminToken, FROM_THE_START, 2, '&limit=200')).entries;
      assert.deepEqual(theirs.map((e) => e.action).sort(), ['organization.created', 'token.created']);
      assert.deepEqual(theirs.find((e) => e.action === 'organization.created').target, { type: 'organization', id: String(other.id) });
    });

    it('refuses bad parameters with 422 and a JSON error', async () => {
      for (const query of ['?limit=0', '?limit=201', '?limit=x', '?after=nope!', '?after=YWJj', `?after=${Buffer.from('b18446744073709551616.1').toString('base64url')}`, `?after=${Buffer.from('b1.9223372036854775808').toString('base64url')}`, '?actor=robot:1', '?actor=token', '?action=published', '?target=a:b:c', '?colour=red']) {
        const res = await t.request('GET', `${AUDIT}${query}`, { token: org.adminToken });
        assert.equal(res.status, 422, `${query}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string', query);
      }
    });

    it('needs an admin token: none, an API token or the operator token is a 401', async () => {
      const api = await t.request('POST', '/api/admin/v1/tokens', { token: org.adminToken, body: { name: 'reader', scope: 'api' } });
      for (const token of [undefined, api.body.secret, operatorToken()]) {
        assert.equal((await t.request('GET', AUDIT, { token })).status, 401);
      }
    });

    it('no API changes or deletes an entry', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await t.request(method, AUDIT, { token: org.adminToken, body: {} });
        assert.equal(res.status, 404, `${method}: ${res.text}`);
        const one = await t.request(method, `${AUDIT}/1`, { token: org.adminToken, body: {} });
        assert.equal(one.status, 404, `${method} one: ${one.text}`);
      }
    });
  });

  describe('retention', () => {
    it('audit_days defaults to 365, and fewer than 90 is a 422 that changes nothing', async () => {
      const other = await createOrganization(t);
      const owner = await givenOwner(t, other.id);
      const shown = await t.request('GET', '/api/admin/v1/retention', { token: other.adminToken });
      assert.equal(shown.body.retention.audit_days, 365);
      assert.equal(shown.body.defaults.audit_days, 365);
      assert.equal(shown.body.overrides.audit_days, null);
      for (const days of [0, 1, 89, 36501, 90.5]) {
        const res = await fromDashboard(t, owner, 'PUT', '/api/admin/v1/retention', { audit_days: days });
        assert.equal(res.status, 422, `${days}: ${res.text}`);
        assert.equal(res.body.validation_errors[0].path, '/audit_days');
      }
      const set = await fromDashboard(t, owner, 'PUT', '/api/admin/v1/retention', { audit_days: 90 });
      assert.equal(set.status, 200, set.text);
      assert.equal(set.body.retention.audit_days, 90);
    });

    it('the purge deletes entries older than the organization\'s audit_days, and only those', async () => {
      const keeping = await createOrganization(t);
      const short = await createOrganization(t);
      assert.equal((await fromDashboard(t, await givenOwner(t, short.id), 'PUT', '/api/admin/v1/retention', { audit_days: 90 })).status, 200);
      const age = async (organizationId: number, days: number) =>
        (await database.pool.query(
          `INSERT INTO audit_entries (organization_id, at, actor_type, actor_id, actor_name, action, target_type, target_id, summary)
           VALUES ($1, now() - $2 * interval '1 day', 'operator', 'operator', 'operator', 'test.aged', 'test', $2::text, '{}') RETURNING id`,
          [organizationId, days],
        )).rows[0].id as string;
      const kept = [await age(short.id, 80), await age(keeping.id, 100), await age(keeping.id, 300)];
      const purged = [await age(short.id, 100), await age(short.id, 400), await age(keeping.id, 366)];
      const counts = await t.app.get(PurgePass).run();
      assert.equal(counts.audit_entries, purged.length);
      const { rows } = await database.pool.query(`SELECT id::text FROM audit_entries WHERE action = 'test.aged'`);
      assert.deepEqual(rows.map((r: { id: string }) => r.id).sort(), [...kept].sort());
    });
  });
});
