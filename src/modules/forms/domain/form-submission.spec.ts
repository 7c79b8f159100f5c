import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrors, readSubmission } from './form-submission.js';
import { requestForm } from './request-form.js';

const form = requestForm({
  name: 'Requests',
  sensitive_data: false,
  attributes: {
    count: { type: 'integer' },
    amount: { type: 'number' },
    at: { type: 'string', format: 'date-time' },
    flag: { type: 'boolean', required: true },
    level: { type: 'integer', enum: [1, 2] },
    data: { type: 'any' },
    name: { type: 'string', required: true },
  },
});

const post = (fields: Record<string, string>) => readSubmission(form, new Map(Object.entries(fields)));
const valid = (fields: Record<string, string>) => {
  const submission = post({ 'attribute:name': 'n', ...fields });
  assert.equal(submission.kind, 'valid', JSON.stringify(submission));
  return (submission as { attributes: { text: string } }).attributes.text;
};

describe('request form: reading a post', () => {
  it('keeps the digits of numbers exactly, written as JSON (no plus, no leading zeros, a zero before the point)', () => {
    assert.equal(valid({ 'attribute:count': '+007' }), '{"count":7,"flag":false,"name":"n"}');
    assert.equal(valid({ 'attribute:count': '-123456789012345678901234567890' }), '{"count":-123456789012345678901234567890,"flag":false,"name":"n"}');
    assert.equal(valid({ 'attribute:amount': '.50' }), '{"amount":0.50,"flag":false,"name":"n"}');
    assert.equal(valid({ 'attribute:amount': ' 00012.5E-3 ' }), '{"amount":12.5E-3,"flag":false,"name":"n"}');
    assert.equal(valid({ 'attribute:amount': '3.' }), '{"amount":3,"flag":false,"name":"n"}');
  });

  it('refuses what is not a number of its kind, next to its field', () => {
    for (const [control, text] of [['attribute:count', '1.5'], ['attribute:count', '1e3'], ['attribute:amount', '.'], ['attribute:amount', '1,5'], ['attribute:amount', 'Infinity']]) {
      const submission = post({ 'attribute:name': 'n', [control]: text });
      assert.equal(submission.kind, 'invalid', `${control}=${text}`);
      assert.deepEqual((submission as { errors: { control: string }[] }).errors.map((e) => e.control), [control]);
    }
  });

  it('reads a datetime-local value as UTC and keeps a full RFC 3339 time as typed', () => {
    assert.match(valid({ 'attribute:at': '2025-01-31T09:30' }), /"at":"2025-01-31T09:30:00Z"/);
    assert.match(valid({ 'attribute:at': '2025-01-31T09:30:15.5' }), /"at":"2025-01-31T09:30:15.5Z"/);
    assert.match(valid({ 'attribute:at': '2025-01-31T09:30:00+02:00' }), /"at":"2025-01-31T09:30:00\+02:00"/);
  });

  it('takes a choice only from the declared ones, as its JSON value', () => {
    assert.match(valid({ 'attribute:level': '2' }), /"level":2/);
    assert.equal(post({ 'attribute:name': 'n', 'attribute:level': '3' }).kind, 'invalid');
  });

  it('takes JSON fields as typed, under the nesting limit, without NUL characters', () => {
    assert.match(valid({ 'attribute:data': ' {"__proto__": [1.10]} ' }), /"data":\{"__proto__": \[1\.10\]\}/);
    assert.equal(post({ 'attribute:name': 'n', 'attribute:data': `${'['.repeat(65)}${']'.repeat(65)}` }).kind, 'invalid');
    assert.equal(post({ 'attribute:name': 'n', 'attribute:data': '"a\\u0000b"' }).kind, 'invalid');
    assert.equal(post({ 'attribute:name': 'n', 'attribute:data': '{"a": }' }).kind, 'invalid');
  });

  it('a required text left blank is an error; a filled honeypot is spam before anything else', () => {
    assert.deepEqual(post({ 'attribute:name': '   ', 'attribute:count': '3' }), {
      kind: 'invalid',
      errors: [{ control: 'attribute:name', message: 'Fill in this field: it is required.' }],
      attributes: { value: { count: 3, flag: false }, text: '{"count":3,"flag":false}' },
    });
    assert.deepEqual(post({ website: 'x', 'attribute:count': 'bad' }), { kind: 'spam' });
  });

  it('puts a schema problem next to the field of its attribute, and one about no field on the form', () => {
    assert.deepEqual(fieldErrors(form, [{ path: '/at', error: 'must match format "date-time"' }, { path: '/data/0', error: 'is odd' }, { path: '', error: 'too many' }]), [
      { control: 'attribute:at', message: 'Enter a date and time, like 2025-01-31T09:30.' },
      { control: 'attribute:data', message: 'At /data/0: is odd.' },
      { control: null, message: 'Too many.' },
    ]);
  });
});
