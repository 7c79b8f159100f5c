const ISO_8601 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]{1,6})?)?(?:Z|[+-]([0-9]{2}):([0-9]{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The text of an ISO 8601 timestamp with its offset, to the microsecond, of a day that exists. */
export function isIsoTimestamp(value: string): boolean {
  const m = ISO_8601.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = m.slice(1);
  const y = Number(year);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const daysInMonth = (DAYS_IN_MONTH[Number(month) - 1] ?? 0) + (leap && month === '02' ? 1 : 0);
  return y >= 1 && Number(day) >= 1 && Number(day) <= daysInMonth && Number(hour) <= 23 && Number(minute) <= 59
    && Number(second) <= 59 && Number(offsetHours) <= 14 && Number(offsetMinutes) <= 59;
}
