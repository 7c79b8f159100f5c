import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SlaClock } from './sla-clocks.js';
import { slaReport } from './sla-report.js';

const MINUTE = 60_000;
const clock = (state: SlaClock['state'], elapsedMinutes: number, answered = true): SlaClock => ({
  state, elapsed_ms: elapsedMinutes * MINUTE, met_at: answered ? new Date(0) : null,
  due_at: null, breached_at: null, paused: false, started_at: new Date(0), warn_at: null,
});

describe('slaReport', () => {
  it('counts met and breached periods per clock and priority, the share met, and the nearest-rank median and 90th percentile of business time to meet; running clocks are not measured', () => {
    const rows = slaReport([
      ...[10, 20, 30, 40, 50, 60, 70, 80, 90].map((minutes) => ({ priority: 'normal' as const, clocks: { first_response: clock('met', minutes) } })),
      { priority: 'normal', clocks: { first_response: clock('breached', 100), resolution: clock('running', 5, false) } },
      { priority: 'urgent', clocks: { first_response: clock('breached', 200, false) } },
    ]);
    assert.deepEqual(rows, [
      { clock: 'first_response', priority: 'normal', measured: 10, met: 9, breached: 1, met_share: 0.9, business_seconds_to_meet: { p50: 50 * 60, p90: 90 * 60 } },
      { clock: 'first_response', priority: 'urgent', measured: 1, met: 0, breached: 1, met_share: 0, business_seconds_to_meet: null },
    ]);
  });
});
