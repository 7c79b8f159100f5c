import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NUMBER_TOO_LARGE, pointerAt, unstorableNumber, writtenOutLength } from './json-numbers.js';

const written = (n: string) => writtenOutLength(n, 0, n.length);

describe('json numbers written out', () => {
  it('counts characters as Postgres writes jsonb numbers (checked against psql)', () => {
    // Postgres: 1e-30 -> 0.000…1 (32), -0 -> 0, -0.0 -> 0.0, 0e-5 -> 0.00000, 0e99999 -> 0,
    // 1.50e1 -> 15.0, 0.0001e2 -> 0.01, 12.5e+3 -> 12500, -2.50, 0.000e3 -> 0, 100e-2 -> 1.00, 1E+2 -> 100.
    const cases: [string, number][] = [
      ['1e-30', 32], ['-0', 1], ['-0.0', 3], ['0e-5', 7], ['0e99999', 1], ['1.50e1', 4], ['0.0001e2', 4], ['12.5e+3', 5],
      ['-2.50', 5], ['0.000e3', 1], ['100e-2', 4], ['1E+2', 3], ['1e131071', 131072], ['1e-16383', 16385], ['6.02e23', 24],
    ];
    for (const [text, length] of cases) assert.equal(written(text), length, text);
  });

  it('saturates absurd exponents instead of overflowing', () => {
    assert.ok(written(`1e${'9'.repeat(400)}`) >= 1_000_000_000);
    assert.ok(written(`1e-${'9'.repeat(400)}`) >= 1_000_000_000);
    assert.equal(written(`0e${'9'.repeat(400)}`), 1);
  });
});

describe('unstorableNumber', () => {
  const refusedAt = (text: string) => unstorableNumber(text)?.path;

  it('accepts what normal senders write', () => {
    for (const n of ['6.02e23', '1e-30', '-0', '0', '-9223372036854775808', '1.7976931348623157', '1e39', '-1e38', '1e-38', '0.1000000000000000055511151231257827', '9'.repeat(200), `0.${'1'.repeat(300)}`]) {
      assert.equal(unstorableNumber(`{"n":${n}}`), undefined, n);
    }
  });

  it('refuses numbers that grow when written out, at their pointer', () => {
    for (const n of ['1e131071', '1e41', '1e40', '-1e39', '1e-39', '5e-324', '1.7976931348623157e308', '0e-99999']) {
      assert.deepEqual(unstorableNumber(`{"n":${n}}`), { path: '/n', error: NUMBER_TOO_LARGE }, n);
    }
    assert.equal(refusedAt('1e131071'), '');
    assert.equal(refusedAt('[1, 2, [3, 1e99]]'), '/2/1');
    assert.equal(refusedAt('{"order":{"lines":[1e400]}}'), '/order/lines/0');
  });

  it('ignores numbers inside strings and keys', () => {
    assert.equal(unstorableNumber('{"1e999":"1e999 \\" 1e999","k":[true,null,false]}'), undefined);
  });

  it('escapes pointer tokens and decodes keys', () => {
    assert.equal(refusedAt('{"a/b":{"~\\u0041":[0,{"x":1,"y":1e50}]}}'), '/a~1b/~0A/1/y');
    assert.equal(pointerAt('{ "a" : [ 1 , { "b" : 2 } ] , "c" : 3 }', 34), '/c');
  });
});
