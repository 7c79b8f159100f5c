import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactSecrets, renderHeaders, renderUrl, secretNamesIn } from './request-templates.js';
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
