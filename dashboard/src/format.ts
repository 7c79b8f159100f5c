const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** Timestamps are shown in UTC, like the API writes them, so every admin sees the same time. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/*
 * Reports and usage count calendar days in the browser's time zone (see days.ts), so their days
 * and times are written in it too, in the browser's language: "Fr., 27. Nov." in German.
 */
const day = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const localDateTime = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const numericDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'numeric' });
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' });

export function formatDay(date: Date): string {
  return day.format(date);
}

export function formatLocalDateTime(date: Date): string {
  return localDateTime.format(date);
}

/** A chart axis tick: the day ("27.11." or "11/27" by the browser's language) at midnight, else the time of day. */
export function formatTick(date: Date): string {
  const midnight = date.getHours() === 0 && date.getMinutes() === 0;
  return (midnight ? numericDay : time).format(date);
}

/** A day on two short lines for a chart axis (narrow enough for a phone): ["Sun", "15"]. */
export function formatDayLines(date: Date): string[] {
  return [weekday.format(date), String(date.getDate())];
}

const integer = new Intl.NumberFormat('en-GB');

export function formatCount(value: number): string {
  return integer.format(value);
}

/** A length of time, rounded to the unit that reads best: "45 s", "12 min", "5 h", "3 days"; "–" for none. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

const fraction = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const BYTE_UNITS = ['KiB', 'MiB', 'GiB'];

/** A file size: "512 bytes", "68.4 KiB", "25 MiB". */
export function formatBytes(size: number): string {
  if (size < 1024) return `${integer.format(size)} ${size === 1 ? 'byte' : 'bytes'}`;
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${fraction.format(value)} ${BYTE_UNITS[unit]}`;
}

const days = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** A retention period: "30 days", "1 day", "0.5 days"; 0 keeps for ever. */
export function formatRetentionDays(value: number): string {
  if (value === 0) return 'kept forever';
  return `${days.format(value)} ${value === 1 ? 'day' : 'days'}`;
}

const ACTORS: Record<string, string> = {
  api_token: 'API token',
  admin_token: 'Admin token',
  webhook: 'Incoming webhook',
  email: 'Incoming email',
  form: 'Request form',
  automation: 'Automation',
  engine: 'Engine',
};

/** `{type: "api_token", id: 3, name: "CRM sync"}` -> "API token “CRM sync”" (without a name: "API token #3"). */
export function formatActor(by: { type: string; id?: number; name?: string }): string {
  const kind = ACTORS[by.type] ?? by.type.replace(/_/g, ' ');
  if (by.name !== undefined) return `${kind} “${by.name}”`;
  return by.id === undefined ? kind : `${kind} #${by.id}`;
}

/** `status_changed` -> "Status changed". */
export function humanize(identifier: string): string {
  const text = identifier.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
