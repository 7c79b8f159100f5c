import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { businessCalendar, type CalendarSettings } from './business-calendar.js';
import { type CaseHistory, slaClocks } from './sla-clocks.js';
import { slaPolicy, type SlaPolicySettings } from './sla-policy.js';

const ALWAYS = businessCalendar({ time_zone: 'UTC', hours: '24x7', holidays: [] });
const OFFICE_HOURS = { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '15:00']] } as CalendarSettings['hours'];
const OFFICE = businessCalendar({ time_zone: 'Europe/Berlin', hours: OFFICE_HOURS, holidays: ['2026-12-24'] });
const policy = (overrides: Partial<SlaPolicySettings> = {}) => slaPolicy({
  calendar: 'Support',
  targets: { normal: { first_response: 'PT1H', next_response: 'PT30M', resolution: 'PT2H' }, urgent: { resolution: 'P1D' } },
  pause_statuses: ['Waiting'],
  warn_before: 'PT15M',
  ...overrides,
});
const t = (hhmm: string, date = '2026-06-01') => new Date(`${date}T${hhmm}:00.000Z`);
const history = (parts: Partial<CaseHistory> = {}): CaseHistory => ({ createdAt: t('10:00'), initialStatus: 'Open', statusChanges: [], publicReplies: [], requesterMessages: [], priorityChanges: [], ...parts });
const moves = (...changes: [string, string][]) => changes.map(([at, to]) => ({ at: t(at), to }));

describe('slaClocks', () => {
  it('runs from creation with a due time and a warning time, and shows only the clocks the priority has', () => {
    const clocks = slaClocks(policy(), ALWAYS, 'normal', history(), t('10:30'));
    assert.deepEqual(clocks.first_response, { state: 'running', due_at: t('11:00'), met_at: null, breached_at: null, paused: false, started_at: t('10:00'), warn_at: t('10:45'), elapsed_ms: 30 * 60_000 });
    assert.equal(clocks.resolution?.due_at?.toISOString(), t('12:00').toISOString());
    assert.equal(clocks.next_response, undefined);
    assert.deepEqual(Object.keys(slaClocks(policy(), ALWAYS, 'urgent', history(), t('10:30'))), ['resolution']);
    assert.deepEqual(slaClocks(policy(), ALWAYS, 'low', history(), t('10:30')), {});
  });

  it('asked at a time before the case was created (a sweep reading a case created after it took its time), runs from creation', () => {
    const early = new Date(t('10:00').getTime() - 142);
    const clocks = slaClocks(policy(), ALWAYS, 'normal', history(), early);
    assert.deepEqual(clocks.first_response, { state: 'running', due_at: t('11:00'), met_at: null, breached_at: null, paused: false, started_at: t('10:00'), warn_at: t('10:45'), elapsed_ms: 0 });
    assert.equal(clocks.resolution?.due_at?.toISOString(), t('12:00').toISOString());
  });

  it('is met by the first public reply in time, breached at its due time otherwise (and stays so once answered)', () => {
    const met = slaClocks(policy(), ALWAYS, 'normal', history({ publicReplies: [t('10:40')] }), t('12:00')).first_response!;
    assert.deepEqual([met.state, met.met_at, met.breached_at, met.elapsed_ms], ['met', t('10:40'), null, 40 * 60_000]);
    const late = slaClocks(policy(), ALWAYS, 'normal', history(), t('11:30')).first_response!;
    assert.deepEqual([late.state, late.due_at, late.breached_at], ['breached', t('11:00'), t('11:00')]);
    const answeredLate = slaClocks(policy(), ALWAYS, 'normal', history({ publicReplies: [t('11:20')] }), t('12:00')).first_response!;
    assert.deepEqual([answeredLate.state, answeredLate.met_at, answeredLate.breached_at], ['breached', t('11:20'), t('11:00')]);
    const onTheDot = slaClocks(policy(), ALWAYS, 'normal', history({ publicReplies: [t('11:00')] }), t('12:00')).first_response!;
    assert.equal(onTheDot.state, 'met');
  });

  it('does not count time in a pause status; paused, it has no due time', () => {
    const waiting = history({ statusChanges: moves(['10:20', 'Waiting']) });
    const paused = slaClocks(policy(), ALWAYS, 'normal', waiting, t('10:55')).first_response!;
    assert.deepEqual([paused.state, paused.paused, paused.due_at, paused.warn_at], ['paused', true, null, null]);
    const resumed = slaClocks(policy(), ALWAYS, 'normal', history({ statusChanges: moves(['10:20', 'Waiting'], ['10:50', 'Open']) }), t('11:00')).first_response!;
    assert.deepEqual([resumed.state, resumed.due_at, resumed.warn_at, resumed.elapsed_ms], ['running', t('11:30'), t('11:15'), 30 * 60_000], 'the half hour paused is not counted');
  });

  it('resolution: met when Closed, and a reopen runs it on from where it stopped', () => {
    const closed = history({ statusChanges: moves(['11:00', 'Closed']) });
    const met = slaClocks(policy(), ALWAYS, 'normal', closed, t('11:30')).resolution!;
    assert.deepEqual([met.state, met.met_at, met.due_at], ['met', t('11:00'), t('12:00')]);
    const reopened = history({ statusChanges: moves(['11:00', 'Closed'], ['12:00', 'Open']) });
    const running = slaClocks(policy(), ALWAYS, 'normal', reopened, t('12:30')).resolution!;
    assert.deepEqual([running.state, running.due_at, running.met_at], ['running', t('13:00'), null]);
    const breached = slaClocks(policy(), ALWAYS, 'normal', reopened, t('13:10')).resolution!;
    assert.deepEqual([breached.state, breached.breached_at], ['breached', t('13:00')]);
  });

  it('next_response: from the first unanswered requester message to the next public reply', () => {
    const parts = { publicReplies: [t('10:05'), t('12:30')], requesterMessages: [t('12:00'), t('12:10'), t('13:00')] };
    const earlier = slaClocks(policy(), ALWAYS, 'normal', history(parts), t('12:35')).next_response!;
    assert.deepEqual([earlier.state, earlier.started_at, earlier.met_at], ['met', t('12:00'), t('12:30')]);
    const current = slaClocks(policy(), ALWAYS, 'normal', history(parts), t('13:20')).next_response!;
    assert.deepEqual([current.state, current.started_at, current.due_at], ['running', t('13:00'), t('13:30')]);
  });

  it('counts business hours only, and a business-day target from the period start', () => {
    // Monday 2026-06-01 16:00 CEST: one hour left that day, so PT2H is due Tuesday 10:00 CEST.
    const clocks = slaClocks(policy(), OFFICE, 'normal', history({ createdAt: t('14:00') }), t('14:30'));
    assert.equal(clocks.resolution?.due_at?.toISOString(), '2026-06-02T08:00:00.000Z');
    // P1D from Wednesday 16:00 CET, 7 h into its day: the next business day is Friday (the 24th is a holiday), closed before that position.
    const urgent = slaClocks(policy(), OFFICE, 'urgent', history({ createdAt: new Date('2026-12-23T15:00:00Z') }), new Date('2026-12-23T15:30:00Z'));
    assert.equal(urgent.resolution?.due_at?.toISOString(), '2026-12-25T14:00:00.000Z');
  });
});

const event = fc.integer({ min: 0, max: 10 * 60 }).map((minutes) => new Date(t('10:00').getTime() + minutes * 60_000));
const arbitraryHistory = fc.record({
  statusChanges: fc.array(fc.record({ at: event, to: fc.constantFrom('Open', 'Waiting', 'Closed', 'Triage') }), { maxLength: 8 }).map((changes) => changes.sort((a, b) => a.at.getTime() - b.at.getTime())),
  publicReplies: fc.array(event, { maxLength: 3 }).map((dates) => dates.sort((a, b) => a.getTime() - b.getTime())),
  requesterMessages: fc.array(event, { maxLength: 3 }).map((dates) => dates.sort((a, b) => a.getTime() - b.getTime())),
}).map((parts) => history(parts));

describe('slaClocks: properties', () => {
  it('a running clock, asked again at its due time with nothing new, is breached at that time; a breach never moves as time goes on', () => {
    fc.assert(fc.property(arbitraryHistory, fc.constantFrom(ALWAYS, OFFICE), fc.integer({ min: 0, max: 12 * 60 }), (h, calendar, minutes) => {
      const now = new Date(h.createdAt.getTime() + minutes * 60_000);
      const upToNow = { ...h, statusChanges: h.statusChanges.filter((c) => c.at <= now), publicReplies: h.publicReplies.filter((d) => d <= now), requesterMessages: h.requesterMessages.filter((d) => d <= now) };
      const clocks = slaClocks(policy(), calendar, 'normal', upToNow, now);
      for (const [name, clock] of Object.entries(clocks)) {
        const later = slaClocks(policy(), calendar, 'normal', upToNow, new Date(now.getTime() + 3 * 24 * 3_600_000))[name as keyof typeof clocks]!;
        if (clock.state === 'running') {
          const atDue = slaClocks(policy(), calendar, 'normal', upToNow, clock.due_at!)[name as keyof typeof clocks]!;
          assert.deepEqual([atDue.state, atDue.breached_at], ['breached', clock.due_at]);
          assert.ok(clock.due_at! > now);
        }
        if (clock.state === 'breached') assert.deepEqual(later.breached_at, clock.breached_at);
        if (clock.state === 'met') assert.deepEqual(later, clock);
        if (clock.warn_at && clock.due_at) assert.ok(clock.warn_at <= clock.due_at);
      }
    }), { numRuns: 300 });
  });
});
