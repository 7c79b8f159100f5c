import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { businessCalendar, type CalendarSettings, WEEKDAYS } from './business-calendar.js';
import { parseBusinessDuration } from './business-duration.js';
import { addBusinessTime, businessTimeBetween } from './business-time.js';

const HOUR = 3_600_000;
const OFFICE = { mon: [['09:00', '17:00']], tue: [['09:00', '12:00'], ['13:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '15:00']] } as CalendarSettings['hours'];
const calendar = (time_zone: string, hours: CalendarSettings['hours'] = OFFICE, holidays: string[] = []) => businessCalendar({ time_zone, hours, holidays });
const EVERY_DAY = Object.fromEntries(WEEKDAYS.map((day) => [day, [['00:00', '24:00']]])) as CalendarSettings['hours'];

function add(cal: ReturnType<typeof calendar>, start: string, duration: string): string | undefined {
  return addBusinessTime(cal, new Date(start), parseBusinessDuration(duration)!)?.toISOString();
}
const between = (cal: ReturnType<typeof calendar>, a: string, b: string) => businessTimeBetween(cal, new Date(a), new Date(b)) / HOUR;

describe('business time across daylight-saving changes', () => {
  it('Europe/Berlin, spring: Friday 13:00 CET plus 3 h is Monday 10:00 CEST', () => {
    assert.equal(add(calendar('Europe/Berlin'), '2026-03-27T12:00:00Z', 'PT3H'), '2026-03-30T08:00:00.000Z');
  });

  it('Europe/Berlin: an always-open week calendar counts the 23-hour and the 25-hour Sunday', () => {
    const cal = calendar('Europe/Berlin', EVERY_DAY);
    assert.equal(between(cal, '2026-03-27T23:00:00Z', '2026-03-29T22:00:00Z'), 47);
    assert.equal(between(cal, '2026-10-23T22:00:00Z', '2026-10-25T23:00:00Z'), 49);
    assert.equal(add(cal, '2026-03-28T23:00:00Z', 'PT12H'), '2026-03-29T11:00:00.000Z');
  });

  it('Europe/Berlin: an interval across the skipped hour holds the time that exists, and one across the repeated hour the time that passes', () => {
    const spring = calendar('Europe/Berlin', { sun: [['01:00', '04:00']] });
    assert.equal(between(spring, '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z'), 2);
    const autumn = calendar('Europe/Berlin', { sun: [['01:00', '04:00']] });
    assert.equal(between(autumn, '2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z'), 4);
    // An interval starting inside the gap opens when the clocks jump past it.
    const inGap = calendar('Europe/Berlin', { sun: [['02:30', '05:00']] });
    assert.equal(add(inGap, '2026-03-28T12:00:00Z', 'PT1M'), '2026-03-29T01:01:00.000Z');
  });

  it('America/New_York: Saturday plus 2 h is Monday 11:00 EDT; the autumn night shift is 4 h long', () => {
    assert.equal(add(calendar('America/New_York'), '2026-03-07T21:00:00Z', 'PT2H'), '2026-03-09T15:00:00.000Z');
    const night = calendar('America/New_York', { sun: [['00:00', '03:00']] });
    assert.equal(between(night, '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z'), 4);
    assert.equal(add(night, '2026-10-31T12:00:00Z', 'PT3H30M'), '2026-11-01T07:30:00.000Z');
  });

  it('under 24x7, P1D is 24 hours even across a change', () => {
    assert.equal(add(calendar('Europe/Berlin', '24x7'), '2026-03-28T11:00:00Z', 'P1D'), '2026-03-29T11:00:00.000Z');
    assert.equal(between(calendar('Europe/Berlin', '24x7'), '2026-03-28T11:00:00Z', '2026-03-29T11:00:00Z'), 24);
  });

  it('P1D keeps the wall-clock position on a business day after a change', () => {
    assert.equal(add(calendar('Europe/Berlin'), '2026-03-27T10:00:00Z', 'P1D'), '2026-03-30T09:00:00.000Z');
  });
});

describe('business time around holidays, midnight and closed time', () => {
  const christmas = calendar('Europe/Berlin', OFFICE, ['2026-12-24', '2026-12-25', '2026-12-28']);

  it('skips a run of holidays and the weekend', () => {
    assert.equal(add(christmas, '2026-12-23T15:00:00Z', 'PT2H'), '2026-12-29T09:00:00.000Z');
    assert.equal(add(christmas, '2026-12-23T09:00:00Z', 'P1D'), '2026-12-29T09:00:00.000Z');
    assert.equal(between(christmas, '2026-12-23T15:00:00Z', '2026-12-29T09:00:00Z'), 2);
  });

  it('counts a night shift across midnight as one stretch', () => {
    const night = calendar('UTC', { mon: [['20:00', '24:00']], tue: [['00:00', '04:00']] });
    assert.equal(add(night, '2026-06-01T23:00:00Z', 'PT2H'), '2026-06-02T01:00:00.000Z');
    assert.equal(between(night, '2026-06-01T22:00:00Z', '2026-06-02T02:00:00Z'), 4);
  });

  it('a due time that uses up an interval is its end, not the next opening', () => {
    const cal = calendar('UTC');
    assert.equal(add(cal, '2026-06-02T11:00:00Z', 'PT1H'), '2026-06-02T12:00:00.000Z');
    assert.equal(add(cal, '2026-06-02T11:00:00Z', 'PT1H1M'), '2026-06-02T13:01:00.000Z');
    assert.equal(add(cal, '2026-06-01T10:00:00Z', 'PT7H'), '2026-06-01T17:00:00.000Z');
  });

  it('P1D: the next business day at the same position, its close when that day is shorter; a start off hours counts from the next opening', () => {
    const cal = calendar('UTC');
    assert.equal(add(cal, '2026-06-04T16:30:00Z', 'P1D'), '2026-06-05T15:00:00.000Z');
    assert.equal(add(cal, '2026-06-06T10:00:00Z', 'P1D'), '2026-06-09T09:00:00.000Z');
    assert.equal(add(cal, '2026-06-01T07:00:00Z', 'P2DT1H'), '2026-06-03T10:00:00.000Z');
    assert.equal(add(cal, '2026-06-02T14:00:00Z', 'P1D'), '2026-06-03T13:00:00.000Z');
  });

  it('finds no due time past the horizon rather than looping, and crosses a long closed stretch', () => {
    const sparse = calendar('UTC', { wed: [['12:00', '12:01']] });
    const started = Date.now();
    assert.equal(add(sparse, '2026-06-01T00:00:00Z', 'PT8784H'), undefined);
    assert.ok(Date.now() - started < 2000);
    const days = Array.from({ length: 900 }, (_, i) => new Date(Date.UTC(2026, 5, 1) + i * 24 * HOUR).toISOString().slice(0, 10));
    assert.equal(add(calendar('UTC', OFFICE, days), '2026-06-01T00:00:00Z', 'PT1H'), '2028-11-17T10:00:00.000Z');
  });
});

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago', 'Pacific/Chatham', 'UTC'];
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const dayHours = fc.uniqueArray(fc.integer({ min: 0, max: 96 }), { maxLength: 6 }).map((quarters) => {
  const sorted = [...quarters].sort((a, b) => a - b);
  const intervals: [string, string][] = [];
  for (let i = 0; i + 1 < sorted.length; i += 2) intervals.push([clock(sorted[i]! * 15), clock(sorted[i + 1]! * 15)]);
  return intervals;
});
const arbitraryCalendar = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    week: fc.array(dayHours, { minLength: 7, maxLength: 7 }),
    holidays: fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 20 }),
  })
  .filter(({ week }) => week.some((day) => day.length > 0))
  .map(({ zone, week, holidays }) => calendar(
    zone,
    Object.fromEntries(WEEKDAYS.map((day, i) => [day, week[i]!])),
    holidays.map((d) => new Date(Date.UTC(2026, 0, 1) + d * 24 * HOUR).toISOString().slice(0, 10)),
  ));
const startInstant = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) }).map((ms) => new Date(ms));
const isOpenJustBefore = (cal: ReturnType<typeof calendar>, at: Date) => businessTimeBetween(cal, new Date(at.getTime() - 1), at) === 1;
const isOpenAt = (cal: ReturnType<typeof calendar>, at: Date) => businessTimeBetween(cal, at, new Date(at.getTime() + 1)) === 1;

describe('business time: properties', () => {
  it('adding business time, then measuring it back, gives the same duration', () => {
    fc.assert(fc.property(arbitraryCalendar, startInstant, fc.integer({ min: 0, max: 40 * HOUR }), (cal, start, ms) => {
      const due = addBusinessTime(cal, start, { days: 0, ms });
      assert.ok(due);
      assert.equal(businessTimeBetween(cal, start, due), ms);
    }), { numRuns: 500 });
  });

  it('a positive duration is due inside open hours (the moment before it is open)', () => {
    fc.assert(fc.property(arbitraryCalendar, startInstant, fc.integer({ min: 1, max: 40 * HOUR }), (cal, start, ms) => {
      assert.ok(isOpenJustBefore(cal, addBusinessTime(cal, start, { days: 0, ms })!));
    }), { numRuns: 500 });
  });

  it('whole business days are due inside open hours, later for more days', () => {
    fc.assert(fc.property(arbitraryCalendar, startInstant, fc.integer({ min: 1, max: 30 }), (cal, start, days) => {
      const due = addBusinessTime(cal, start, { days, ms: 0 })!;
      const more = addBusinessTime(cal, start, { days: days + 1, ms: 0 })!;
      assert.ok(isOpenJustBefore(cal, due) || isOpenAt(cal, due));
      assert.ok(businessTimeBetween(cal, start, due) > 0);
      assert.ok(more > due);
    }), { numRuns: 200 });
  });

  it('measuring is additive: [a, b) and [b, c) make [a, c)', () => {
    fc.assert(fc.property(arbitraryCalendar, startInstant, fc.integer({ min: 0, max: 40 * 24 * HOUR }), fc.integer({ min: 0, max: 40 * 24 * HOUR }), (cal, a, x, y) => {
      const b = new Date(a.getTime() + x);
      const c = new Date(b.getTime() + y);
      assert.equal(businessTimeBetween(cal, a, b) + businessTimeBetween(cal, b, c), businessTimeBetween(cal, a, c));
    }), { numRuns: 200 });
  });
});
