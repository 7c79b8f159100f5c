import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_OVERRIDES, organizationRetention } from './retention.js';

const DEFAULTS = { runsDays: 30, deliveriesDays: 14, closedCasesDays: 0, auditDays: 365 };

describe('organizationRetention', () => {
  it('follows the defaults where the organization chose nothing', () => {
    assert.deepEqual(organizationRetention(DEFAULTS, NO_OVERRIDES), { inForce: DEFAULTS, overrides: NO_OVERRIDES, defaults: DEFAULTS });
  });

  it('takes each override on its own, 0 included', () => {
    const overrides = { runsDays: 7, deliveriesDays: null, closedCasesDays: 0, auditDays: 90 };
    const defaults = { ...DEFAULTS, closedCasesDays: 90 };
    assert.deepEqual(organizationRetention(defaults, overrides).inForce, { runsDays: 7, deliveriesDays: 14, closedCasesDays: 0, auditDays: 90 });
  });
});
