import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { disabledReason, retryDelayMs } from './delivery-schedule.js';

describe('delivery schedule', () => {
  it('backs off 4 times longer per attempt, within ±20%, and never more than 6 hours (+20%) apart', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const nominal = Math.min(5000 * 4 ** (attempt - 1), 6 * 3600_000);
      const delay = retryDelayMs(5000, attempt);
      assert.ok(delay >= nominal * 0.8 && delay <= nominal * 1.2, `attempt ${attempt}: ${delay} ms around ${nominal} ms`);
    }
  });

  it('says how long a subscription failed before it was disabled, in the largest whole unit', () => {
    assert.equal(disabledReason(259_200_000), 'deliveries failed for more than 3 days without a success');
    assert.equal(disabledReason(86_400_000), 'deliveries failed for more than 1 day without a success');
    assert.equal(disabledReason(7_200_000), 'deliveries failed for more than 2 hours without a success');
    assert.equal(disabledReason(90_000), 'deliveries failed for more than 90 seconds without a success');
    assert.equal(disabledReason(1000), 'deliveries failed for more than 1 second without a success');
    assert.equal(disabledReason(1500), 'deliveries failed for more than 1 second without a success');
  });
});
