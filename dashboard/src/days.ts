/**
 * Calendar days in the browser's time zone: the one rule by which Reports and Usage cut their
 * days, so a case counts on the same day on both pages. Days are built from the date's fields,
 * not by adding 24 hours, so a daylight-saving change does not shift them.
 */

/** Local midnight of the day `n` days after the one `date` falls on (`n` may be negative). */
export function dayStart(date: Date, n = 0): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + n);
}

/** The last `count` calendar days, today (whole, up to tomorrow's midnight) last. */
export function lastDays(count: number, now: Date): { from: Date; to: Date } {
  return { from: dayStart(now, 1 - count), to: dayStart(now, 1) };
}

/** Local midnight of the first day of `date`'s month. */
export function monthStart(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), 1);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * ISO 8601 in the browser's offset at that instant (`2026-11-27T00:00:00-10:00`): the report API
 * starts its days at the hour of day `from` names in the offset it is written in.
 */
export function localIso(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const abs = Math.abs(offset);
  const local = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
