import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { render, type TemplateScope, UnresolvableTemplateError } from './templates.js';

const ORDER = { id: 'A-1', lines: [{ sku: 'X-1', qty: 2 }] };
const SCOPE: TemplateScope = {
  case: { id: 42, subject: 'Refund for Ada', status: 'Open', mode: 'live', workflow_id: 7 },
  attributes: { email: 'ada@example.com', amount: 12.5, vip: true, off: false, nothing: null, order: ORDER, tags: ['a', 'b'] },
};

const rendered = (value: unknown) => render(value, SCOPE);

function assertUnresolvable(value: unknown, path: string): void {
  assert.throws(() => rendered(value), (err: unknown) => {
    assert.ok(err instanceof UnresolvableTemplateError, `expected UnresolvableTemplateError, got ${String(err)}`);
    assert.match(err.message, new RegExp(path.replaceAll('.', '\\.')));
    return true;
  });
}

describe('render', () => {
  it('gives a string that is exactly one template the value itself, with its JSON type', () => {
    assert.equal(rendered('{{ case.id }}'), 42);
    assert.equal(rendered('{{ attributes.amount }}'), 12.5);
    assert.equal(rendered('{{ attributes.vip }}'), true);
    assert.equal(rendered('{{ attributes.off }}'), false);
    assert.equal(rendered('{{ attributes.nothing }}'), null);
    assert.equal(rendered('{{ attributes.email }}'), 'ada@example.com');
    assert.deepEqual(rendered('{{ attributes.order }}'), ORDER);
    assert.deepEqual(rendered('{{ attributes.tags }}'), ['a', 'b']);
    assert.equal(rendered('{{ attributes.order.lines.0.qty }}'), 2);
  });

  it('accepts any spacing inside the braces', () => {
    assert.equal(rendered('{{case.id}}'), 42);
    assert.equal(rendered('{{   case.workflow_id   }}'), 7);
  });

  it('inserts templates inside longer strings as text (objects and arrays as JSON)', () => {
    assert.equal(rendered('Case {{ case.id }} for {{ attributes.email }}'), 'Case 42 for ada@example.com');
    assert.equal(rendered(' {{ case.id }}'), ' 42');
    assert.equal(rendered('vip={{ attributes.vip }}, off={{attributes.off}}, nothing={{ attributes.nothing }}'), 'vip=true, off=false, nothing=null');
    assert.equal(rendered('order: {{ attributes.order }}'), 'order: {"id":"A-1","lines":[{"sku":"X-1","qty":2}]}');
    assert.equal(rendered('{{ case.id }}{{ case.status }}'), '42Open');
  });

  it('leaves strings without templates and non-string values unchanged', () => {
    for (const value of ['plain', '{ case.id }', '', 0, -1.5, true, false, null]) assert.equal(rendered(value), value);
  });

  it('throws UnresolvableTemplateError for a path that does not resolve, whole or embedded, at any depth', () => {
    assertUnresolvable('{{ attributes.missing }}', 'attributes.missing');
    assertUnresolvable('Dear {{ attributes.name }}', 'attributes.name');
    assertUnresolvable({ a: [{ b: '{{ case.owner }}' }] }, 'case.owner');
    assertUnresolvable('{{ attributes.email.domain }}', 'attributes.email.domain');
    assertUnresolvable('{{ attributes.order.constructor }}', 'attributes.order.constructor');
    assertUnresolvable('{{ secrets.key }}', 'secrets.key');
  });

  it('renders every string of nested objects and arrays and keeps everything else', () => {
    const input = {
      customer: { email: '{{ attributes.email }}', vip: '{{ attributes.vip }}', since: 2019 },
      lines: ['{{ attributes.order.lines.0 }}', 'case-{{ case.id }}', 3, null, [false, '{{ case.mode }}']],
      empty: {},
    };
    const snapshot = structuredClone(input);
    assert.deepEqual(rendered(input), {
      customer: { email: 'ada@example.com', vip: true, since: 2019 },
      lines: [{ sku: 'X-1', qty: 2 }, 'case-42', 3, null, [false, 'live']],
      empty: {},
    });
    assert.deepEqual(input, snapshot, 'the input is not modified');
  });

  it('keeps a "__proto__" key as an own data property of the rendered object', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "{{ case.id }}"}, "safe": "{{ case.status }}"}') as unknown;
    const output = rendered(input) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(output), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(output, '__proto__'), { value: { polluted: 42 }, writable: true, enumerable: true, configurable: true });
    assert.deepEqual(Object.keys(output), ['__proto__', 'safe']);
    assert.equal(JSON.stringify(output), '{"__proto__":{"polluted":42},"safe":"Open"}');
    assert.equal((output as { polluted?: unknown }).polluted, undefined);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });
});
