import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readStamp, ReportRange, ReportRangeError } from './report-range.js';

const stamp = (text: string) => readStamp(text) ?? assert.fail(`${text} not read`);
const NOW = new Date('2026-11-24T13:20:00Z');

describe('report range', () => {
  it('reads dates and date-times with or without offsets, and refuses days that do not exist', () => {
    assert.deepEqual(readStamp('2026-11-01'), { at: new Date('2026-11-01T00:00:00Z'), offsetMinutes: 0 });
    assert.deepEqual(readStamp('2026-11-01T00:00:00+02:00'), { at: new Date('2026-10-31T22:00:00Z'), offsetMinutes: 120 });
    assert.deepEqual(readStamp('2026-11-01T10:00-0530'), { at: new Date('2026-11-01T15:30:00Z'), offsetMinutes: -330 });
    assert.deepEqual(readStamp('2026-11-01T10:00:00.250Z'), { at: new Date('2026-11-01T10:00:00.250Z'), offsetMinutes: 0 });
    for (const bad of ['2026-02-30', '2026-11-01T24:00:00Z', '2026-11-01T10:00:00+25:00', 'yesterday', '2026-W01', '1e9', '']) assert.equal(readStamp(bad), null, bad);
  });

  it('starts days at the hour `from` names in its offset, and answers in that offset', () => {
    const range = ReportRange.of(stamp('2026-11-01T00:00:00+02:00'), stamp('2026-11-03T12:00:00+02:00'), 'day', NOW);
    assert.deepEqual(range.starts().map((s) => range.format(s)), ['2026-11-01T00:00:00+02:00', '2026-11-02T00:00:00+02:00', '2026-11-03T00:00:00+02:00']);
    assert.equal(range.format(range.to), '2026-11-03T12:00:00+02:00');
  });

  it('widens to whole hours, and defaults to the 30 days up to the end of the current hour', () => {
    const range = ReportRange.of(stamp('2026-11-01T10:30:00+05:30'), stamp('2026-11-01T12:10:00Z'), 'hour', NOW);
    assert.equal(range.from.toISOString(), '2026-11-01T05:00:00.000Z');
    assert.equal(range.to.toISOString(), '2026-11-01T13:00:00.000Z');
    assert.equal(range.intervalCount, 8);
    const fallback = ReportRange.of(undefined, undefined, 'day', NOW);
    assert.equal(fallback.to.toISOString(), '2026-11-24T14:00:00.000Z');
    assert.equal(fallback.from.toISOString(), '2026-10-25T14:00:00.000Z');
    assert.equal(fallback.format(fallback.from), '2026-10-25T14:00:00Z');
  });

  it('refuses ranges over 366 days, over 2,000 intervals, or ending before they start', () => {
    const refused = (from: string, to: string, interval: 'hour' | 'day' | 'week') => assert.throws(() => ReportRange.of(stamp(from), stamp(to), interval, NOW), ReportRangeError);
    refused('2025-01-01', '2026-01-03', 'week');
    refused('2026-01-01', '2026-03-25T09:00Z', 'hour');
    refused('2026-01-02', '2026-01-01', 'day');
    refused('2026-01-01T10:00Z', '2026-01-01T10:00Z', 'day');
    assert.equal(ReportRange.of(stamp('2025-01-01'), stamp('2026-01-02'), 'day', NOW).intervalCount, 366);
    assert.equal(ReportRange.of(stamp('2026-01-01'), stamp('2026-03-25T08:00Z'), 'hour', NOW).intervalCount, 2000);
  });
});
