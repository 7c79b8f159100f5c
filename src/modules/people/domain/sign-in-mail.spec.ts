import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryDelayMs } from './sign-in-mail.js';

describe('retryDelayMs', () => {
  it('doubles from a second after each failed attempt, and never waits more than five minutes', () => {
    assert.deepEqual([1, 2, 3, 4].map(retryDelayMs), [1_000, 2_000, 4_000, 8_000]);
    assert.equal(retryDelayMs(9), 256_000);
    assert.equal(retryDelayMs(10), 300_000);
    assert.equal(retryDelayMs(40), 300_000);
  });
});
