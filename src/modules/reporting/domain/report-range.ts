export const REPORT_INTERVALS = ['hour', 'day', 'week'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

const HOUR_MS = 3_600_000;
const INTERVAL_MS: Record<ReportInterval, number> = { hour: HOUR_MS, day: 24 * HOUR_MS, week: 7 * 24 * HOUR_MS };
export const MAX_RANGE_DAYS = 366;
export const MAX_INTERVALS = 2000;
export const DEFAULT_RANGE_DAYS = 30;

/** Why a range cannot be reported (the caller answers 422 with it). */
export class ReportRangeError extends Error {}

/** A timestamp as a caller wrote it: the instant, and the UTC offset it was written in (minutes). */
export interface Stamp {
  at: Date;
  offsetMinutes: number;
}

const STAMP = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * Reads an ISO 8601 date or date-time (`2026-11-01`, `2026-11-01T00:00:00+02:00`); one without
 * an offset is UTC. Null when it is not one, or names a day or time that does not exist.
 */
export function readStamp(text: string): Stamp | null {
  const m = STAMP.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone, sign, oh = '0', om = '0'] = m;
  const offsetMinutes = zone && zone !== 'Z' ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  if (Number(oh) > 23 || Number(om) > 59) return null;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(local);
  const fields = [check.getUTCFullYear(), check.getUTCMonth() + 1, check.getUTCDate(), check.getUTCHours(), check.getUTCMinutes(), check.getUTCSeconds()];
  if (fields.join() !== [y, mo, d, h, mi, s].map(Number).join()) return null;
  return { at: new Date(local - offsetMinutes * 60_000), offsetMinutes };
}

/**
 * The span a report covers, cut into intervals. Figures are kept per UTC hour, so `from` is
 * moved back and `to` forward to a whole hour; intervals then start at `from` and last exactly
 * an hour, 24 hours or 7 × 24 hours (the last one ends at `to` and may be shorter). A day
 * therefore starts at the hour of day `from` names, in the offset it is written in: with
 * `from=2026-11-01T00:00:00+02:00`, days run from midnight to midnight at UTC+2. An offset that
 * is not a whole number of hours (+05:30) is moved back to the whole UTC hour before it, and the
 * answer's `from` says so. An offset is not a time zone: a daylight-saving change inside the
 * range does not move the interval starts.
 */
export class ReportRange {
  private constructor(
    readonly from: Date,
    readonly to: Date,
    readonly interval: ReportInterval,
    readonly offsetMinutes: number,
  ) {}

  static of(from: Stamp | undefined, to: Stamp | undefined, interval: ReportInterval, now: Date): ReportRange {
    const end = ceilHour(to?.at ?? now);
    const start = floorHour(from?.at ?? new Date(end.getTime() - DEFAULT_RANGE_DAYS * 24 * HOUR_MS));
    if (!(start < end)) throw new ReportRangeError('"from" must be before "to"');
    if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * 24 * HOUR_MS) throw new ReportRangeError(`the range must not be longer than ${MAX_RANGE_DAYS} days`);
    const range = new ReportRange(start, end, interval, from?.offsetMinutes ?? to?.offsetMinutes ?? 0);
    if (range.intervalCount > MAX_INTERVALS) throw new ReportRangeError(`the range must not hold more than ${MAX_INTERVALS} intervals (${range.intervalCount} ${interval}s asked)`);
    return range;
  }

  get intervalMs(): number {
    return INTERVAL_MS[this.interval];
  }

  get intervalCount(): number {
    return Math.ceil((this.to.getTime() - this.from.getTime()) / this.intervalMs);
  }

  /** The start of each interval, in order. */
  starts(): Date[] {
    return Array.from({ length: this.intervalCount }, (_, i) => new Date(this.from.getTime() + i * this.intervalMs));
  }

  /** An instant as ISO 8601 in the offset the caller wrote `from` in (`Z` for UTC). */
  format(at: Date): string {
    if (this.offsetMinutes === 0) return at.toISOString().replace('.000Z', 'Z');
    const local = new Date(at.getTime() + this.offsetMinutes * 60_000).toISOString().slice(0, 19);
    const abs = Math.abs(this.offsetMinutes);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${local}${this.offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }
}

const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
