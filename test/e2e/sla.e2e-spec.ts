/**
 * Service levels through HTTP (sla.md sections 1 and 2): business-hours calendars and the SLA
 * policies of workflows, their validation (every problem with its pointer, nothing stored), a
 * calendar in use that cannot go, one audit entry per change, and organizations kept apart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readAudit } from '../support/audit-helpers.js';
import { eventually } from '../support/automation-helpers.js';
import { createOrganization, createWorkflow, type Organization } from '../support/scenario.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SUPPORT_HOURS = {
  time_zone: 'Europe/Berlin',
  hours: { tue: [['09:00', '12:00'], ['13:00', '17:00']], mon: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '15:00']] },
  holidays: ['2026-12-26', '2026-12-24', '2026-12-25'],
};
const POLICY = {
  calendar: 'Support hours',
  targets: {
    urgent: { first_response: 'PT1H', resolution: 'PT8H' },
    high: { first_response: 'PT4H', resolution: 'P2D' },
    normal: { first_response: 'PT8H', next_response: 'PT8H', resolution: 'P5D' },
  },
  pause_statuses: ['Waiting on customer'],
  warn_before: 'PT30M',
};
const calendarPath = (name: string) => `/api/admin/v1/calendars/${encodeURIComponent(name)}`;

describe('service levels', () => {
  let t: TestApp;
  let org: Organization;
  let workflowId: number;
  const as = (method: string, path: string, body?: unknown, token = org.adminToken) => t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const slaPath = (id = workflowId) => `/api/admin/v1/workflows/${id}/sla`;

  before(async () => {
    t = await startTestApp();
    org = await createOrganization(t);
    workflowId = await createWorkflow(t, org);
  });

  after(async () => {
    await t.close();
  });

  describe('business-hours calendars', () => {
    it('PUT stores a calendar and answers it, weekdays from Monday and holidays in date order; GET and the list show it; replacing keeps created_at', async () => {
      const created = await as('PUT', calendarPath('Support hours'), SUPPORT_HOURS);
      assert.equal(created.status, 200, created.text);
      const { calendar } = created.body;
      assert.deepEqual(Object.keys(calendar.hours), ['mon', 'tue', 'wed', 'thu', 'fri']);
      assert.deepEqual({ ...calendar, created_at: undefined, updated_at: undefined }, {
        name: 'Support hours', ...SUPPORT_HOURS, hours: calendar.hours, holidays: ['2026-12-24', '2026-12-25', '2026-12-26'], created_at: undefined, updated_at: undefined,
      });
      assert.deepEqual(calendar.hours.tue, SUPPORT_HOURS.hours.tue);

      const read = await as('GET', calendarPath('Support hours'));
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body.calendar, calendar);

      const replaced = await as('PUT', calendarPath('Support hours'), { time_zone: 'America/New_York', hours: '24x7' });
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual([replaced.body.calendar.hours, replaced.body.calendar.holidays, replaced.body.calendar.created_at], ['24x7', [], calendar.created_at]);
      assert.equal((await as('PUT', calendarPath('Support hours'), SUPPORT_HOURS)).status, 200);
      assert.equal((await as('PUT', calendarPath('Night-shift_2'), { time_zone: 'utc', hours: { mon: [['22:00', '24:00']], tue: [['00:00', '06:00']] } })).status, 200);

      const list = await as('GET', '/api/admin/v1/calendars');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.calendars.map((c: { name: string; time_zone: string }) => [c.name, c.time_zone]), [['Night-shift_2', 'UTC'], ['Support hours', 'Europe/Berlin']]);
    });

    it('refuses a bad calendar with 422 naming each problem, and stores nothing', async () => {
      const refused: [string, unknown, string[]][] = [
        ['no IANA zone', { ...SUPPORT_HOURS, time_zone: 'Mars/Olympus_Mons' }, ['/time_zone']],
        ['an offset is no zone', { ...SUPPORT_HOURS, time_zone: '+01:00' }, ['/time_zone']],
        ['overlapping intervals', { ...SUPPORT_HOURS, hours: { mon: [['09:00', '13:00'], ['12:00', '17:00']] } }, ['/hours/mon/1']],
        ['intervals out of order', { ...SUPPORT_HOURS, hours: { mon: [['13:00', '17:00'], ['09:00', '12:00']] } }, ['/hours/mon/1']],
        ['an interval ending before it starts, one past midnight, one malformed', { ...SUPPORT_HOURS, hours: { mon: [['17:00', '09:00']], tue: [['09:00', '25:00']], wed: [['9:00', '17:00']] } }, ['/hours/mon/0', '/hours/tue/0', '/hours/wed/0']],
        ['an unknown weekday', { ...SUPPORT_HOURS, hours: { monday: [['09:00', '17:00']] } }, ['/hours/monday']],
        ['a calendar never open', { ...SUPPORT_HOURS, hours: { mon: [], sat: [] } }, ['/hours']],
        ['hours missing', { time_zone: 'UTC' }, ['/hours']],
        ['a holiday that is no date, one listed twice', { ...SUPPORT_HOURS, holidays: ['2026-02-30', '2026-12-24', '2026-12-24'] }, ['/holidays/0', '/holidays/2']],
        ['holidays on a 24x7 calendar', { time_zone: 'UTC', hours: '24x7', holidays: ['2026-12-24'] }, ['/holidays']],
        ['an unknown key', { ...SUPPORT_HOURS, owner: 'me' }, ['/owner']],
      ];
      for (const [what, body, paths] of refused) {
        const res = await as('PUT', calendarPath('Refused'), body);
        assert.equal(res.status, 422, `${what}: ${res.text}`);
        assert.equal(res.body.error, 'invalid request body', what);
        assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), paths, what);
      }
      const badName = await as('PUT', calendarPath('x'.repeat(65)), SUPPORT_HOURS);
      assert.equal(badName.status, 422, badName.text);
      assert.equal((await as('GET', calendarPath('Refused'))).status, 404);
      assert.equal((await as('GET', calendarPath('no*such'))).status, 404);
    });

    it('an organization sees and changes its own calendars only', async () => {
      const other = await createOrganization(t);
      assert.equal((await as('GET', calendarPath('Support hours'), undefined, other.adminToken)).status, 404);
      assert.deepEqual((await as('GET', '/api/admin/v1/calendars', undefined, other.adminToken)).body, { calendars: [] });
      assert.equal((await as('DELETE', calendarPath('Support hours'), undefined, other.adminToken)).status, 404);
      assert.equal((await as('GET', calendarPath('Support hours'))).status, 200);
    });
  });

  describe('SLA policies', () => {
    it('PUT sets the contract\'s example policy and GET shows it; DELETE removes it', async () => {
      assert.equal((await as('GET', slaPath())).status, 404, 'no policy yet');
      const set = await as('PUT', slaPath(), POLICY);
      assert.equal(set.status, 200, set.text);
      const { sla_policy: policy } = set.body;
      assert.deepEqual({ ...policy, created_at: undefined, updated_at: undefined }, {
        workflow_id: workflowId,
        ...POLICY,
        targets: { high: POLICY.targets.high, normal: POLICY.targets.normal, urgent: POLICY.targets.urgent },
        created_at: undefined,
        updated_at: undefined,
      });
      assert.deepEqual(Object.keys(policy.targets), ['normal', 'high', 'urgent']);
      assert.deepEqual((await as('GET', slaPath())).body, set.body);

      const replaced = await as('PUT', slaPath(), { calendar: 'Night-shift_2', targets: { low: { resolution: 'PT10S' } } });
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual([replaced.body.sla_policy.pause_statuses, replaced.body.sla_policy.warn_before, replaced.body.sla_policy.created_at], [[], null, policy.created_at]);

      assert.equal((await as('DELETE', slaPath())).status, 204);
      assert.equal((await as('GET', slaPath())).status, 404);
      assert.equal((await as('DELETE', slaPath())).status, 404);
    });

    it('refuses a bad policy with 422 naming each problem, and stores nothing', async () => {
      const refused: [string, unknown, string[]][] = [
        ['no such calendar', { ...POLICY, calendar: 'Nowhere' }, ['/calendar']],
        ['a pause status the workflow does not declare, one listed twice', { ...POLICY, pause_statuses: ['On hold', 'Waiting on customer', 'Waiting on customer'] }, ['/pause_statuses/0', '/pause_statuses/2']],
        ['durations this service does not count', { ...POLICY, targets: { normal: { first_response: 'P1W', next_response: 'PT0S', resolution: 'P1M' }, high: { resolution: '8 hours' }, urgent: { resolution: 'PT1.5H' } } },
          ['/targets/normal/first_response', '/targets/normal/next_response', '/targets/normal/resolution', '/targets/high/resolution', '/targets/urgent/resolution']],
        ['absurd durations', { ...POLICY, targets: { normal: { resolution: 'P367D', first_response: 'PT8785H' } } }, ['/targets/normal/resolution', '/targets/normal/first_response']],
        ['an unknown priority and clock', { ...POLICY, targets: { critical: { resolution: 'PT1H' }, normal: { answer: 'PT1H' } } }, ['/targets/critical', '/targets/normal/answer']],
        ['no target at all', { ...POLICY, targets: { normal: {} } }, ['/targets']],
        ['a bad warn_before', { ...POLICY, warn_before: '30 minutes' }, ['/warn_before']],
        ['an unknown key', { ...POLICY, escalate: true }, ['/escalate']],
      ];
      for (const [what, body, paths] of refused) {
        const res = await as('PUT', slaPath(), body);
        assert.equal(res.status, 422, `${what}: ${res.text}`);
        assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), paths, what);
      }
      assert.equal((await as('GET', slaPath())).status, 404, 'nothing was stored');
      const other = await createOrganization(t);
      assert.equal((await as('PUT', slaPath(), POLICY, other.adminToken)).status, 404, 'another organization\'s workflow');
      assert.equal((await as('GET', slaPath(999_999_999))).status, 404);
    });

    it('a calendar a policy names cannot be deleted (422, naming the workflow) until the policy goes or names another', async () => {
      assert.equal((await as('PUT', calendarPath('Short lived'), { time_zone: 'UTC', hours: '24x7' })).status, 200);
      assert.equal((await as('PUT', slaPath(), { ...POLICY, calendar: 'Short lived' })).status, 200);
      const refused = await as('DELETE', calendarPath('Short lived'));
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.body.error, new RegExp(`in use by the SLA policy of workflow ${workflowId}`));
      assert.equal((await as('GET', calendarPath('Short lived'))).status, 200, 'still there');
      assert.equal((await as('PUT', slaPath(), POLICY)).status, 200);
      assert.equal((await as('DELETE', calendarPath('Short lived'))).status, 204);
      assert.equal((await as('GET', calendarPath('Short lived'))).status, 404);
      assert.equal((await as('DELETE', calendarPath('Short lived'))).status, 404);
    });
  });

  it('each change writes one audit entry naming its action and target; a refused one writes none', async () => {
    const workflowId = await createWorkflow(t, org);
    const slaPath = () => `/api/admin/v1/workflows/${workflowId}/sla`;
    const changes: [string, () => Promise<{ status: number }>, string, { type: string; id: string }][] = [
      ['create a calendar', () => as('PUT', calendarPath('Audited'), { time_zone: 'UTC', hours: '24x7' }), 'calendar.created', { type: 'calendar', id: 'Audited' }],
      ['a refused calendar', () => as('PUT', calendarPath('Audited'), { time_zone: 'nowhere', hours: '24x7' }), '', { type: '', id: '' }],
      ['replace it', () => as('PUT', calendarPath('Audited'), { time_zone: 'Europe/Berlin', hours: '24x7' }), 'calendar.replaced', { type: 'calendar', id: 'Audited' }],
      ['set a policy on it', () => as('PUT', slaPath(), { ...POLICY, calendar: 'Audited' }), 'sla_policy.set', { type: 'workflow', id: String(workflowId) }],
      ['a refused policy', () => as('PUT', slaPath(), { ...POLICY, calendar: 'Nowhere' }), '', { type: '', id: '' }],
      ['delete the policy', () => as('DELETE', slaPath()), 'sla_policy.deleted', { type: 'workflow', id: String(workflowId) }],
      ['delete the calendar', () => as('DELETE', calendarPath('Audited')), 'calendar.deleted', { type: 'calendar', id: 'Audited' }],
    ];
    for (const [what, send] of changes) assert.ok((await send()).status < 500, what);
    const expected = changes.filter(([, , action]) => action !== '');
    const mine = (e: { action: string; target: { type: string; id: string } }) => (e.target.type === 'calendar' && e.target.id === 'Audited') || (e.action.startsWith('sla_policy.') && e.target.id === String(workflowId));
    const entries = await eventually('the entries of the changes', async () => {
      const found = (await readAudit(t, org.adminToken, '?limit=100')).entries.filter(mine).reverse();
      return found.length >= expected.length ? found : undefined;
    });
    assert.deepEqual(entries.map((e: { action: string; target: unknown }) => [e.action, e.target]), expected.map(([, , action, target]) => [action, target]));
    assert.deepEqual(entries[1].summary, { changed: ['/time_zone'] });
  });
});
