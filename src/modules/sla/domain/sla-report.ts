import type { SlaClocks } from './sla-clocks.js';
import { CLOCKS, type ClockName, PRIORITIES, type Priority } from './sla-policy.js';

/** One clock at one priority over the cases of a report (sla.md section 4). */
export interface SlaReportRow {
  clock: ClockName;
  priority: Priority;
  /** Clocks that ended their period met or breached; one still running or paused is not measured yet. */
  measured: number;
  met: number;
  breached: number;
  /** met / measured; null when nothing was measured. */
  met_share: number | null;
  /** Business time from the period's start to its reply or close, over the periods that got one. */
  business_seconds_to_meet: { p50: number; p90: number } | null;
}

/** The cases' clocks summed per clock and priority, in the API's order; a pair without a measured clock is left out. */
export function slaReport(cases: Iterable<{ priority: Priority; clocks: SlaClocks }>): SlaReportRow[] {
  const groups = new Map<string, { met: number; breached: number; elapsed: number[] }>();
  for (const { priority, clocks } of cases) {
    for (const [clock, state] of Object.entries(clocks)) {
      if (state.state !== 'met' && state.state !== 'breached') continue;
      const key = `${clock} ${priority}`;
      const group = groups.get(key) ?? { met: 0, breached: 0, elapsed: [] };
      if (state.state === 'met') group.met++;
      else group.breached++;
      if (state.met_at !== null) group.elapsed.push(state.elapsed_ms);
      groups.set(key, group);
    }
  }
  return CLOCKS.flatMap((clock) => PRIORITIES.flatMap((priority): SlaReportRow[] => {
    const group = groups.get(`${clock} ${priority}`);
    if (!group) return [];
    const measured = group.met + group.breached;
    const sorted = group.elapsed.sort((a, b) => a - b);
    return [{
      clock, priority, measured, met: group.met, breached: group.breached,
      met_share: measured === 0 ? null : group.met / measured,
      business_seconds_to_meet: sorted.length === 0 ? null : { p50: nearestRank(sorted, 0.5) / 1000, p90: nearestRank(sorted, 0.9) / 1000 },
    }];
  }));
}

/** The nearest-rank percentile of ascending values: a value some period really took. */
function nearestRank(ascending: readonly number[], share: number): number {
  return ascending[Math.max(0, Math.ceil(share * ascending.length) - 1)]!;
}
