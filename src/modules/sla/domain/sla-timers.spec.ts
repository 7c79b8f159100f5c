import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { businessCalendar } from './business-calendar.js';
import { slaClocks } from './sla-clocks.js';
import { slaPolicy } from './sla-policy.js';
import { caseHistoryFrom, desiredTimers } from './sla-timers.js';

const ALWAYS = businessCalendar({ time_zone: 'UTC', hours: '24x7', holidays: [] });
const POLICY = slaPolicy({ calendar: 'Always', targets: { normal: { first_response: 'PT1H', resolution: 'PT2H' } }, pause_statuses: ['Waiting'], warn_before: 'PT15M' });
const t = (hhmm: string) => new Date(`2026-06-01T${hhmm}:00.000Z`);
const row = (type: string, hhmm: string, data: Record<string, unknown> = {}) => ({ type, data, createdAt: t(hhmm) });

describe('caseHistoryFrom', () => {
  it('reads status changes, public replies, the requester\'s later messages (not a machine\'s) and priority changes from the timeline', () => {
    const history = caseHistoryFrom(t('10:00'), 'Closed', [
      row('created', '10:00', { status: 'Open' }),
      row('email_received', '10:00'),
      row('comment_added', '10:10', { visibility: 'internal' }),
      row('comment_added', '10:20', { visibility: 'public' }),
      row('status_changed', '10:30', { from: 'Open', to: 'Waiting' }),
      row('email_received', '10:40'),
      row('email_received', '10:45', { automatic: true }),
      row('run_started', '10:46'),
      row('priority_changed', '10:50', { from: 'normal', to: 'urgent' }),
    ]);
    assert.deepEqual(history, {
      createdAt: t('10:00'),
      initialStatus: 'Open',
      statusChanges: [{ at: t('10:30'), to: 'Waiting' }],
      publicReplies: [t('10:20')],
      requesterMessages: [t('10:40')],
      priorityChanges: [t('10:50')],
    });
  });
});

describe('desiredTimers', () => {
  const history = (parts = {}) => ({ ...caseHistoryFrom(t('10:00'), 'Open', []), ...parts });

  it('a running clock wants its warning and its breach, each with the clock\'s due time', () => {
    assert.deepEqual(desiredTimers(slaClocks(POLICY, ALWAYS, 'normal', history(), t('10:05'))), [
      { clock: 'first_response', kind: 'warning', periodStartedAt: t('10:00'), fireAt: t('10:45'), dueAt: t('11:00') },
      { clock: 'first_response', kind: 'breach', periodStartedAt: t('10:00'), fireAt: t('11:00'), dueAt: t('11:00') },
      { clock: 'resolution', kind: 'warning', periodStartedAt: t('10:00'), fireAt: t('11:45'), dueAt: t('12:00') },
      { clock: 'resolution', kind: 'breach', periodStartedAt: t('10:00'), fireAt: t('12:00'), dueAt: t('12:00') },
    ]);
  });

  it('a breached clock still wants its warning and its breach at the moments they passed (fired late if nobody fired them); a paused or met one nothing it did not reach', () => {
    const late = desiredTimers(slaClocks(POLICY, ALWAYS, 'normal', history(), t('11:30')));
    assert.deepEqual(late.filter((timer) => timer.clock === 'first_response'), [
      { clock: 'first_response', kind: 'warning', periodStartedAt: t('10:00'), fireAt: t('10:45'), dueAt: t('11:00') },
      { clock: 'first_response', kind: 'breach', periodStartedAt: t('10:00'), fireAt: t('11:00'), dueAt: t('11:00') },
    ]);
    const answeredAfterWarning = desiredTimers(slaClocks(POLICY, ALWAYS, 'normal', history({ publicReplies: [t('10:50')] }), t('11:30')));
    assert.deepEqual(answeredAfterWarning.filter((timer) => timer.clock === 'first_response').map((timer) => timer.kind), ['warning']);
    const pausedAfterWarning = history({ statusChanges: [{ at: t('10:50'), to: 'Waiting' }] });
    assert.deepEqual(desiredTimers(slaClocks(POLICY, ALWAYS, 'normal', pausedAfterWarning, t('12:30'))).map((timer) => `${timer.clock} ${timer.kind}`), ['first_response warning']);
    const paused = history({ statusChanges: [{ at: t('10:10'), to: 'Waiting' }] });
    assert.deepEqual(desiredTimers(slaClocks(POLICY, ALWAYS, 'normal', paused, t('10:30'))), []);
    const met = history({ publicReplies: [t('10:10')], statusChanges: [{ at: t('10:20'), to: 'Closed' }] });
    assert.deepEqual(desiredTimers(slaClocks(POLICY, ALWAYS, 'normal', met, t('10:30'))), []);
  });
});
