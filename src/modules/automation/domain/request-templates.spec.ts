import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { maskSecrets, redactSecrets, renderHeaders, renderUrl, secretForms, secretNamesIn } from './request-templates.js';
import type { TemplateScope } from './templates.js';

const scopeWith = (attributes: Record<string, unknown>, secrets: Record<string, string> = {}): TemplateScope => ({
  case: { id: 42, subject: 'S', status: 'Open', mode: 'live', workflow_id: 7 },
  attributes,
  secrets,
});

function urlOf(template: string, value: unknown): string {
  const result = renderUrl(template, false, scopeWith({ v: value }));
  assert.ok(result.ok, JSON.stringify(result));
  return result.value;
}

describe('renderUrl', () => {
  it('percent-encodes a value as one component, so host and path above it stay', () => {
    for (const value of ['@evil.example/x', '../../admin', '/x?y#z', 'a:b', '%2e%2e', '%00', '\r\nHost: evil', 'a b']) {
      const url = new URL(urlOf('https://crm.example/base/{{ attributes.v }}', value));
      assert.equal(url.host, 'crm.example', value);
      assert.ok(url.pathname.startsWith('/base/') && url.pathname.split('/').length === 3, `${value} -> ${url.pathname}`);
      assert.equal(decodeURIComponent(url.pathname.slice('/base/'.length)), value);
    }
  });

  it('keeps a value in the query as a value', () => {
    const url = new URL(urlOf('https://crm.example/s?q={{ attributes.v }}&n=1', 'a&n=2#x'));
    assert.deepEqual([...url.searchParams], [['q', 'a&n=2#x'], ['n', '1']]);
  });

  it('refuses a value that makes a "." or ".." path segment', () => {
    for (const value of ['..', '.']) {
      const result = renderUrl('https://crm.example/base/{{ attributes.v }}/x', false, scopeWith({ v: value }));
      assert.deepEqual(result, { ok: false, error: 'a url template value makes a "." or ".." path segment' });
    }
    assert.ok(renderUrl('https://crm.example/base/{{ attributes.v }}', false, scopeWith({ v: '...' })).ok);
    assert.ok(renderUrl('https://crm.example/a/{{ attributes.v }}', false, scopeWith({ v: '..' })).ok === false);
  });

  it('takes the whole url from an attribute only with url_from_attribute, and only an http(s) one', () => {
    assert.deepEqual(renderUrl('{{ attributes.v }}', true, scopeWith({ v: 'https://x.example/a?b=c' })), { ok: true, value: 'https://x.example/a?b=c' });
    assert.equal(renderUrl('{{ attributes.v }}', true, scopeWith({ v: 'file:///etc/passwd' })).ok, false);
    assert.equal(renderUrl('{{ attributes.v }}', true, scopeWith({ v: 42 })).ok, false);
  });
});

describe('renderHeaders', () => {
  it('fills in values, secrets included', () => {
    assert.deepEqual(renderHeaders({ authorization: 'Bearer {{ secrets.K }}', 'x-id': '{{ case.id }}' }, scopeWith({}, { K: 's3cr3t' })), {
      ok: true,
      value: { authorization: 'Bearer s3cr3t', 'x-id': '42' },
    });
  });

  it('refuses a value holding CR, LF or NUL, naming the header', () => {
    for (const [value, error] of [['a\r\nX-Evil: 1', 'line break'], ['a\nb', 'line break'], ['a\rb', 'line break'], ['a\0b', 'NUL character']]) {
      assert.deepEqual(renderHeaders({ 'x-ref': 'ref-{{ attributes.v }}' }, scopeWith({ v: value })), { ok: false, error: `header x-ref contains a ${error}` });
    }
  });
});

describe('secrets', () => {
  it('finds the secret names a step uses', () => {
    assert.deepEqual([...secretNamesIn(['https://x/?k={{ secrets.A }}', { h: '{{secrets.B}} {{ attributes.c }}' }, { b: ['{{ secrets.A }}'] }])], ['A', 'B']);
  });

  it('redacts every value, as given and percent-encoded, longest first', () => {
    const redact = redactSecrets({ SHORT: 'abc', LONG: 'abc/def', EMPTY: '' });
    assert.equal(redact('x abc/def y abc%2Fdef z abc'), 'x [secret LONG] y [secret LONG] z [secret SHORT]');
  });
});

describe('masking secrets of the full Unicode range (property)', () => {
  const PLACEHOLDER = '[secret K]';
  // A secret with a bracket, or one that stands inside the placeholder itself, could be read back out of the placeholder: no real secret is that short.
  const secrets = fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((s) => !/[[\]]/.test(s) && !secretForms(s).some((form) => PLACEHOLDER.includes(form)));
  const text = fc.string({ unit: 'binary', maxLength: 8 });
  /** The parts of `masked` between placeholders hold no form of `secret`. */
  const assertNoForm = (masked: string, secret: string, how: string, forms = secretForms(secret)) => {
    for (const part of masked.split(PLACEHOLDER)) for (const form of forms) assert.ok(!part.includes(form), `${how}: ${JSON.stringify(form)} is left in ${JSON.stringify(masked)}`);
  };

  it('leaves no form of the secret in text holding it raw, percent-encoded, JSON-escaped or base64', () => {
    fc.assert(fc.property(secrets, text, text, (secret, before, after) => {
      const redact = redactSecrets({ K: secret });
      const forms = secretForms(secret);
      for (const form of forms) assertNoForm(redact(`${before}${form}${after}`), secret, 'one form');
      assertNoForm(redact(JSON.stringify({ [before]: `${before}${secret}${after}` })), secret, 'in a JSON text');
      assertNoForm(redact(`Basic ${Buffer.from(secret).toString('base64')}`), secret, 'a base64 header');
    }), { numRuns: 400 });
  });

  it('masks a value before it is written out: no form of the secret in its JSON, at any depth, keys included', () => {
    fc.assert(fc.property(secrets, text, text, (secret, before, after) => {
      const value = { [`${before}${secret}`]: [`${before}${secret}${after}`, { deep: { deeper: [secret] } }], n: 1 };
      const masked = maskSecrets(value, redactSecrets({ K: secret }));
      assertNoForm(JSON.stringify(masked), secret, 'written as JSON');
      const escapedTwice = JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1);
      assertNoForm(JSON.stringify(JSON.stringify(masked)), secret, 'written as JSON twice', [...secretForms(secret), escapedTwice]);
    }), { numRuns: 400 });
  });
});
