import { HOUR, MINUTE } from './time-zone.js';

/**
 * An ISO 8601 duration counted in a calendar's business time: `days` whole business days (each
 * one the next business day's same business-time position), then `ms` of business time.
 */
export interface BusinessDuration {
  days: number;
  ms: number;
}

/** A year of days, or of hours: past it a target is a typing error, and the arithmetic's loops stay short. */
export const MAX_DURATION_DAYS = 366;
const MAX_DURATION_MS = MAX_DURATION_DAYS * 24 * HOUR;

const DURATION = /^P(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9})S)?)?$/;

export const DURATION_RULE = `an ISO 8601 duration of days, hours, minutes and seconds (P2D, PT4H, PT30M, PT10S, P1DT4H), above zero, at most ${MAX_DURATION_DAYS} days and ${MAX_DURATION_DAYS * 24} hours`;

/** The duration, or undefined when `text` is not one this service counts (years, months, weeks and fractions are not). */
export function parseBusinessDuration(text: unknown): BusinessDuration | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DURATION.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [, days, hours, minutes, seconds] = match.map((part) => Number(part ?? 0));
  const duration = { days: days!, ms: hours! * HOUR + minutes! * MINUTE + seconds! * 1000 };
  if (duration.days + duration.ms === 0 || duration.days > MAX_DURATION_DAYS || duration.ms > MAX_DURATION_MS) return undefined;
  return duration;
}
