/** A report digest: its schedule, who gets it, and which workflows it covers (null: all). */
export interface DigestSchedule {
  schedule: 'daily' | 'weekly';
  hourUtc: number;
  /** ISO weekday, 1 (Monday) to 7 (Sunday); weekly digests only. */
  weekday: number | null;
}

/** A digest as the scheduler sees it: what to send when, without its recipients' answers. */
export interface ScheduledDigest extends DigestSchedule {
  id: number;
  organizationId: number;
  /** As the admin gave them; only the confirmed ones get the digest. */
  recipients: string[];
  workflowIds: number[] | null;
  createdAt: Date;
  lastSentAt: Date | null;
  /** The last send given up after MAX_SEND_ATTEMPTS, and its last error; kept after later sends succeed. */
  lastFailedAt: Date | null;
  lastError: string | null;
}

export interface Digest extends ScheduledDigest {
  /** Those of `recipients` that confirmed and did not unsubscribe since. */
  confirmedRecipients: string[];
  /** Those of `recipients` that unsubscribed from the organization's digests. */
  unsubscribedRecipients: string[];
}

export interface Period {
  start: Date;
  end: Date;
}

export const MAX_RECIPIENTS = 20;
/** A digest whose service was down this many periods or more is sent for the last ones only. */
export const MAX_CATCH_UP_PERIODS = 7;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A send (or a confirmation mail) the relay keeps refusing is given up after this many attempts. */
export const MAX_SEND_ATTEMPTS = 5;
/** A manual send of a digest is refused this long after the last one was asked for. */
export const MANUAL_SEND_SPACING_MS = 10 * 60_000;
/** An address that did not answer its confirmation mail is mailed again, on a new digest naming it, only this long after. */
export const INVITATION_SPACING_MS = 7 * DAY_MS;
/**
 * How long sent, skipped and failed sends are kept, counted from their period's end: longer than
 * duePeriods looks back (MAX_CATCH_UP_PERIODS of the longest schedule), with a day to spare for
 * clocks, so a purged period is never due again.
 */
export const DIGEST_SENDS_KEPT_MS = MAX_CATCH_UP_PERIODS * 7 * DAY_MS + DAY_MS;

export function periodMs(schedule: DigestSchedule): number {
  return schedule.schedule === 'daily' ? DAY_MS : 7 * DAY_MS;
}

/** The end of the last period that ended at or before `now`: the latest `hour_utc` (on `weekday`, weekly) not after it. */
export function lastPeriodEnd(schedule: DigestSchedule, now: Date): Date {
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  let end = midnight + schedule.hourUtc * HOUR_MS;
  if (schedule.schedule === 'weekly') {
    const isoWeekday = ((new Date(midnight).getUTCDay() + 6) % 7) + 1;
    end -= ((isoWeekday - schedule.weekday! + 7) % 7) * DAY_MS;
  }
  while (end > now.getTime()) end -= periodMs(schedule);
  return new Date(end);
}

/**
 * The periods due by `now`, oldest first: those that ended after the digest was created, at
 * most MAX_CATCH_UP_PERIODS of the latest. Periods already sent are among them: sending is
 * claimed per period, so a worker only ever sends the ones it claims first.
 */
export function duePeriods(schedule: DigestSchedule, createdAt: Date, now: Date): Period[] {
  const length = periodMs(schedule);
  const periods: Period[] = [];
  for (let end = lastPeriodEnd(schedule, now).getTime(); end > createdAt.getTime() && periods.length < MAX_CATCH_UP_PERIODS; end -= length) {
    periods.unshift({ start: new Date(end - length), end: new Date(end) });
  }
  return periods;
}

/** What a manual send covers: the period's length, up to the end of the current hour. */
export function periodEndingNow(schedule: DigestSchedule, now: Date): Period {
  const end = Math.ceil(now.getTime() / HOUR_MS) * HOUR_MS;
  return { start: new Date(end - periodMs(schedule)), end: new Date(end) };
}
