import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { DAY, ianaZone, MINUTE } from './time-zone.js';

/** Weekday names as the API spells them, in `Date#getUTCDay` order (Sunday first). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The order the API shows a week in. */
const WEEK_FROM_MONDAY: readonly Weekday[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

export const ALWAYS_OPEN = '24x7';
export const CALENDAR_NAME = /^[A-Za-z0-9 _-]{1,64}$/;
export const MAX_INTERVALS_PER_DAY = 24;
export const MAX_HOLIDAYS = 1000;

/** A calendar as the API takes and shows it: wall-clock intervals per weekday, and holidays as dates. */
export interface CalendarSettings {
  time_zone: string;
  hours: typeof ALWAYS_OPEN | Partial<Record<Weekday, [string, string][]>>;
  holidays: string[];
}

/** A calendar ready for arithmetic. */
export interface BusinessCalendar {
  timeZone: string;
  /** Per weekday (Sunday first), open intervals in ms after local midnight, ordered and apart; null: always open. */
  week: readonly (readonly (readonly [number, number])[])[] | null;
  /** Local dates (days since 1970-01-01) the calendar is closed all day. */
  holidays: ReadonlySet<number>;
}

export function businessCalendar(settings: CalendarSettings): BusinessCalendar {
  const { hours } = settings;
  return {
    timeZone: settings.time_zone,
    week: hours === ALWAYS_OPEN ? null : WEEKDAYS.map((day) => (hours[day] ?? []).map(([from, to]) => [clockMs(from), clockMs(to)] as const)),
    holidays: new Set(settings.holidays.map((date) => Date.parse(`${date}T00:00:00Z`) / DAY)),
  };
}

/** The hours with their weekdays from Monday on, whatever order they were stored in. */
export function weekFromMonday(hours: CalendarSettings['hours']): CalendarSettings['hours'] {
  if (hours === ALWAYS_OPEN) return hours;
  return Object.fromEntries(WEEK_FROM_MONDAY.filter((day) => day in hours).map((day) => [day, hours[day]!]));
}

const CLOCK = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function clockMs(text: string): number {
  const match = CLOCK.exec(text)!;
  return match[1] === undefined ? DAY : (Number(match[1]) * 60 + Number(match[2])) * MINUTE;
}

type Report = (path: string, error: string) => undefined;

type Parsed = { ok: true; settings: CalendarSettings } | { ok: false; problems: ValidationProblem[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a calendar body: every problem, each with the JSON Pointer of its value. */
export function parseCalendarSettings(body: unknown): Parsed {
  const problems: ValidationProblem[] = [];
  const report: Report = (path, error) => void problems.push({ path, error });
  if (!isObject(body)) return { ok: false, problems: [{ path: '', error: 'must be a JSON object' }] };
  for (const key of Object.keys(body)) if (!['time_zone', 'hours', 'holidays'].includes(key)) report(`/${key}`, `unsupported key "${key}"`);

  const zone = typeof body.time_zone === 'string' ? ianaZone(body.time_zone) : undefined;
  if (zone === undefined) report('/time_zone', 'must be an IANA time zone, such as "Europe/Berlin"');
  const hours = parseHours(body.hours, report);
  const holidays = parseHolidays(body.holidays ?? [], report);
  if (hours === ALWAYS_OPEN && holidays.length > 0) report('/holidays', 'a "24x7" calendar is always open and has no holidays');

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, settings: { time_zone: zone!, hours: weekFromMonday(hours!), holidays } };
}

function parseHours(value: unknown, report: Report): CalendarSettings['hours'] | undefined {
  if (value === ALWAYS_OPEN) return ALWAYS_OPEN;
  if (!isObject(value)) {
    report('/hours', 'must be "24x7" or an object of weekdays (mon ... sun), each a list of ["HH:MM", "HH:MM"] intervals');
    return undefined;
  }
  const week: Partial<Record<Weekday, [string, string][]>> = {};
  let flawed = false;
  for (const [day, intervals] of Object.entries(value)) {
    const path = `/hours/${day}`;
    const checked = !(WEEKDAYS as readonly string[]).includes(day)
      ? report(path, 'unknown weekday: use mon, tue, wed, thu, fri, sat, sun')
      : !Array.isArray(intervals) || intervals.length > MAX_INTERVALS_PER_DAY
        ? report(path, `must be a list of at most ${MAX_INTERVALS_PER_DAY} intervals`)
        : parseDay(intervals, path, report);
    if (checked) week[day as Weekday] = checked;
    else flawed = true;
  }
  if (!flawed && Object.values(week).every((intervals) => intervals.length === 0)) report('/hours', 'the calendar is never open: give at least one interval');
  return week;
}

function parseDay(intervals: unknown[], path: string, report: Report): [string, string][] | undefined {
  let previousEnd = -1;
  let valid = true;
  intervals.forEach((interval, i) => {
    const at = `${path}/${i}`;
    if (!Array.isArray(interval) || interval.length !== 2 || !interval.every((t) => typeof t === 'string' && CLOCK.test(t))) {
      report(at, 'must be ["HH:MM", "HH:MM"], from 00:00 to 24:00');
      valid = false;
      return;
    }
    const [from, to] = interval.map((t: string) => clockMs(t)) as [number, number];
    if (from === DAY || from >= to) report(at, 'must start before it ends, within the day');
    else if (from < previousEnd) report(at, 'must start at or after the end of the interval before it (ordered, not overlapping)');
    else {
      previousEnd = to;
      return;
    }
    valid = false;
  });
  return valid ? (intervals as [string, string][]) : undefined;
}

function parseHolidays(value: unknown, report: Report): string[] {
  if (!Array.isArray(value) || value.length > MAX_HOLIDAYS) {
    report('/holidays', `must be a list of at most ${MAX_HOLIDAYS} dates (YYYY-MM-DD)`);
    return [];
  }
  const seen = new Set<string>();
  value.forEach((date, i) => {
    if (typeof date !== 'string' || !DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
      report(`/holidays/${i}`, 'must be a date, YYYY-MM-DD');
    } else if (seen.has(date)) report(`/holidays/${i}`, 'is listed twice');
    else seen.add(date);
  });
  return [...seen].sort();
}
