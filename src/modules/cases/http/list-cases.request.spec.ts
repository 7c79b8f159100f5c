import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isIsoTimestamp } from '../../../shared/http/iso-timestamp.js';
import { statusList } from './list-cases.request.js';

describe('case list query values', () => {
  it('takes ISO 8601 timestamps with an offset, to the microsecond, of days that exist', () => {
    for (const value of ['2024-02-29T00:00:00Z', '2026-01-31T09:30Z', '2026-01-31T09:30:00.123456+05:30', '0001-01-01T00:00:00-14:00', '9999-12-31T23:59:59.999999Z']) {
      assert.equal(isIsoTimestamp(value), true, value);
    }
    for (const value of ['2023-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00', '2024-01-01', '2024-01-01T00:00:00.1234567Z', '0000-01-01T00:00:00Z', '2024-01-01T00:00:00+15:00', '2024-01-01t00:00:00z', ' 2024-01-01T00:00:00Z', '1700000000']) {
      assert.equal(isIsoTimestamp(value), false, value);
    }
  });

  it('reads a status list of 1 to 50 non-empty storable statuses', () => {
    assert.deepEqual(statusList('Open'), ['Open']);
    assert.deepEqual(statusList('Open,Waiting on customer'), ['Open', 'Waiting on customer']);
    for (const value of ['', ',', 'Open,', 'a\u0000', '\ud800', 'x'.repeat(201), Array.from({ length: 51 }, (_, i) => `s${i}`).join(',')]) {
      assert.equal(statusList(value), undefined, value);
    }
  });
});
