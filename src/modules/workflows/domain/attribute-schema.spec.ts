import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AttributeSchema } from './attribute-schema.js';

const problems = (attributes: Record<string, unknown>) =>
  new AttributeSchema({ sensitive_data: false, attributes: { tier: { type: 'string', enum: ['gold', 'silver', 'bronze'] }, level: { type: 'integer', enum: [1, 2], required: true } } }).check(attributes);

describe('AttributeSchema enum messages', () => {
  it('lists the allowed values as a person would, null as "empty"', () => {
    assert.deepEqual(problems({ tier: 'tin', level: 1 }), [{ path: '/tier', error: 'must be one of: gold, silver, bronze, or empty' }]);
  });

  it('says "or" between two values of a required attribute', () => {
    assert.deepEqual(problems({ level: 3 }), [{ path: '/level', error: 'must be 1 or 2' }]);
  });
});
