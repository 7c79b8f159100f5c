import type { BusinessCalendar } from './business-calendar.js';
import type { BusinessDuration } from './business-duration.js';
import { DAY, HOUR, instantOf, localDayOf, offsetAt } from './time-zone.js';

/**
 * How far ahead a due time is looked for: a calendar open one minute a week, asked for a year
 * of business hours, has none this side of it. Past it there is no due time (null).
 */
export const HORIZON_DAYS = 3653;

/**
 * The instant `duration` of business time after `start`: `days` whole business days first (the
 * same business-time position on the n-th next business day, or that day's close when it is
 * shorter), then `ms` of business time. The earliest such instant, so a due time that uses up
 * an interval is its end, never the next opening. Null when it lies past the horizon.
 */
export function addBusinessTime(calendar: BusinessCalendar, start: Date, duration: BusinessDuration): Date | null {
  const afterDays = duration.days === 0 ? start.getTime() : addBusinessDays(calendar, start.getTime(), duration.days);
  const due = afterDays === null ? null : addBusinessMs(calendar, afterDays, duration.ms);
  return due === null ? null : new Date(due);
}

/** The business time in [a, b), in ms; negative when b is before a. */
export function businessTimeBetween(calendar: BusinessCalendar, a: Date, b: Date): number {
  return businessMsBetween(calendar, a.getTime(), b.getTime());
}

export function addBusinessMs(calendar: BusinessCalendar, start: number, ms: number): number | null {
  if (calendar.week === null || ms === 0) return start + ms;
  let left = ms;
  for (const [from, to] of openIntervals(calendar, start, localDayOf(calendar.timeZone, start) + HORIZON_DAYS)) {
    if (left <= to - from) return from + left;
    left -= to - from;
  }
  return null;
}

export function businessMsBetween(calendar: BusinessCalendar, a: number, b: number): number {
  if (b < a) return -businessMsBetween(calendar, b, a);
  if (calendar.week === null) return b - a;
  let total = 0;
  for (const [from, to] of openIntervals(calendar, a, localDayOf(calendar.timeZone, b))) {
    if (from >= b) break;
    total += Math.min(to, b) - from;
  }
  return total;
}

function addBusinessDays(calendar: BusinessCalendar, start: number, days: number): number | null {
  if (calendar.week === null) return start + days * DAY;
  const horizon = localDayOf(calendar.timeZone, start) + HORIZON_DAYS;
  const first = openIntervals(calendar, start, horizon).next();
  if (first.done) return null;
  // The business day of `start` is that of its next open moment: an evening counts as the day's close, a Sunday as Monday's opening.
  const [opening] = first.value;
  let day = localDayOf(calendar.timeZone, opening);
  let dayIntervals = intervalsOn(calendar, day);
  if (!dayIntervals.some(([from, to]) => from <= opening && opening < to)) dayIntervals = intervalsOn(calendar, --day);
  const position = dayIntervals.reduce((sum, [from, to]) => sum + Math.max(0, Math.min(to, opening) - from), 0);
  for (let found = 0; found < days;) {
    if (++day > horizon) return null;
    dayIntervals = intervalsOn(calendar, day);
    if (dayIntervals.length > 0) found++;
  }
  let left = position;
  for (const [from, to] of dayIntervals) {
    if (left <= to - from) return from + left;
    left -= to - from;
  }
  return dayIntervals.at(-1)![1];
}

/** The open intervals from `start` on (the first one cut at `start`), up to the local day `lastDay`. */
function* openIntervals(calendar: BusinessCalendar, start: number, lastDay: number): Generator<[number, number]> {
  for (let day = localDayOf(calendar.timeZone, start) - 1; day <= lastDay; day++) {
    for (const [from, to] of intervalsOn(calendar, day)) if (to > start) yield [Math.max(from, start), to];
  }
}

/** The open intervals of a local day as instants; a closed day costs no time-zone look-up. */
function intervalsOn(calendar: BusinessCalendar, day: number): [number, number][] {
  const hours = calendar.week![(((day + 4) % 7) + 7) % 7]!;
  if (hours.length === 0 || calendar.holidays.has(day)) return [];
  const zone = calendar.timeZone;
  const midnight = day * DAY;
  // One offset for the whole day unless it changes within the day (or the 16 hours either side).
  const before = offsetAt(zone, midnight - 16 * HOUR);
  const steady = before === offsetAt(zone, midnight + DAY + 16 * HOUR);
  const instant = (wall: number) => (steady ? wall - before : instantOf(zone, wall));
  return hours.map(([from, to]) => [instant(midnight + from), instant(midnight + to)] as [number, number]).filter(([from, to]) => to > from);
}
