/** The calendar periods the range-wide figures (time to close, top errors) are also kept by. */
export const GRAINS = ['hour', 'day', 'month'] as const;
export type Grain = (typeof GRAINS)[number];

/** The periods of one grain starting at or after `from` and before `to`. */
export interface GrainSpan {
  grain: Grain;
  from: Date;
  to: Date;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const nextDay = (t: number) => Math.ceil(t / DAY_MS) * DAY_MS;
const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const monthStart = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const nextMonth = (t: number) => {
  const start = monthStart(t);
  if (start === t) return t;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/**
 * Whole UTC months, days and hours that tile [from, to) exactly, with as few periods as the
 * calendar allows: a year is about 12 months, the days before and after them, and the hours at
 * each end, so what a year's range reads does not grow with its length. `from` and `to` are
 * whole hours. Spans of one grain come out in time order; empty spans are left out.
 */
export function tileWithUtcPeriods(from: Date, to: Date): GrainSpan[] {
  const a = from.getTime();
  const b = to.getTime();
  if (a % HOUR_MS !== 0 || b % HOUR_MS !== 0) throw new Error('a report range runs from a whole hour to a whole hour');
  const daysFrom = Math.min(nextDay(a), b);
  const daysTo = Math.max(dayStart(b), daysFrom);
  const monthsFrom = Math.min(nextMonth(daysFrom), daysTo);
  const monthsTo = Math.max(monthStart(daysTo), monthsFrom);
  const spans: [Grain, number, number][] = [
    ['hour', a, daysFrom],
    ['hour', daysTo, b],
    ['day', daysFrom, monthsFrom],
    ['day', monthsTo, daysTo],
    ['month', monthsFrom, monthsTo],
  ];
  return spans.filter(([, start, end]) => start < end).map(([grain, start, end]) => ({ grain, from: new Date(start), to: new Date(end) }));
}
