/**
 * Wall-clock time <-> instants in an IANA time zone, from the runtime's own zone rules
 * (`Intl.DateTimeFormat`, which ships the tz database with ICU): no zone rule is written here.
 * Instants and wall-clock times are both milliseconds; a wall-clock time is counted as if it
 * were UTC (so 2026-03-29T02:30 local is `Date.UTC(2026, 2, 29, 2, 30)`).
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Further than any zone's offset from UTC (Kiribati +14, historical +15:13). */
const OFFSET_BOUND = 16 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * The zone's canonical spelling when `name` is an IANA zone the runtime knows, else undefined.
 * Offsets such as `+01:00` are refused: they are no zone and know no daylight-saving time.
 */
export function ianaZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*$/.test(name) || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Offsets of recently asked instants per zone, whole seconds only (Intl formats no milliseconds). */
const offsetCache = new Map<string, number>();
const OFFSET_CACHE_SIZE = 50_000;

/** The zone's offset from UTC at an instant: wall-clock time minus the instant. */
export function offsetAt(zone: string, instant: number): number {
  const second = Math.floor(instant / 1000) * 1000;
  const key = `${zone} ${second}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const parts: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(second)) parts[part.type] = part.value;
  const wall = new Date(0);
  wall.setUTCFullYear(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
  const offset = wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second)) - second;
  if (offsetCache.size >= OFFSET_CACHE_SIZE) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** The wall-clock time at an instant. */
export function wallClockAt(zone: string, instant: number): number {
  return instant + offsetAt(zone, instant);
}

/** The local date (days since 1970-01-01) of an instant. */
export function localDayOf(zone: string, instant: number): number {
  return Math.floor(wallClockAt(zone, instant) / DAY);
}

/**
 * The instant at which the zone's clocks show `wall`. A wall-clock time shown twice (clocks
 * going back) is its first showing; one never shown (clocks going forward) is the moment the
 * clocks jump past it, so an interval that starts or ends in the gap holds exactly the time
 * that exists. Exact as long as the zone changes its offset at most once within 16 hours of
 * `wall`, which every zone of the tz database does.
 */
export function instantOf(zone: string, wall: number): number {
  const before = offsetAt(zone, wall - OFFSET_BOUND);
  const after = offsetAt(zone, wall + OFFSET_BOUND);
  const early = wall - Math.max(before, after);
  const late = wall - Math.min(before, after);
  if (before === after) return early;
  const earlyShows = wallClockAt(zone, early) === wall;
  if (earlyShows) return early;
  if (wallClockAt(zone, late) === wall) return late;
  return transitionBetween(zone, early, late, after);
}

/** The first instant of (`from`, `to`] with offset `to`'s, to the second: the moment of a forward jump. */
function transitionBetween(zone: string, from: number, to: number, offsetAfter: number): number {
  let lo = from;
  let hi = to;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(zone, mid) === offsetAfter) hi = mid;
    else lo = mid;
  }
  return hi;
}
