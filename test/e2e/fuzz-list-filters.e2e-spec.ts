/**
 * Generated `attributes` filter shapes against the real case lists (the cases API's and the
 * admin one), over a workflow whose cases hold nested objects and long arrays: deep nesting,
 * long arrays, many arrays, big strings, odd scalars and text that is no JSON object. Every
 * answer is a 200 or a 422 with a JSON error (never another status); a filter beyond the shape
 * limits (docs/list-filters.md) is always a 422 at a pointer below `/attributes`, and a 200 only
 * ever answers a filter within them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createdCaseId, type CasesFixture, givenCasesWorkflow } from '../support/cases-api.js';
import { encodeComponent, type FuzzCase, fuzz, hostileString, numberLiteral, toJsonText } from '../support/hostile-input.js';
import { closeDb, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

const MAX_CHARS = 2048;
const MAX_DEPTH = 4;
const MAX_ITEMS = 20;

/** Levels of objects and arrays, and array items in all, of a parsed filter. */
function shape(value: unknown, depth = 1): { depth: number; items: number } {
  const children = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : undefined;
  if (!children) return { depth: depth - 1, items: 0 };
  return children.reduce<{ depth: number; items: number }>((acc, child) => {
    const inner = shape(child, depth + 1);
    return { depth: Math.max(acc.depth, inner.depth), items: acc.items + inner.items };
  }, { depth, items: Array.isArray(value) ? value.length : 0 });
}

/** True when the filter text is a JSON object whose size or shape is beyond the limits. */
function beyondLimits(text: string): boolean {
  if (text.length > MAX_CHARS) return true;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { depth, items } = shape(value);
  return depth > MAX_DEPTH || items > MAX_ITEMS;
}

const scalar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('gold', 'tag1', 'tag7', 'sku3', 'Open', '', 'x'.repeat(300)) },
  { weight: 2, arbitrary: hostileString.filter((s) => s.length < 2500) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: numberLiteral },
);
const key = fc.oneof(fc.constantFrom('tier', 'tags', 'lines', 'order', 'sku', 'a', 'x/y', '~', '__proto__'), fc.string({ maxLength: 6 }));

/** Values from flat to deeply nested, with arrays from empty to far past the limit. */
const { value: filterValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: scalar },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 8 }) },
    { weight: 1, arbitrary: fc.array(scalar, { minLength: 15, maxLength: 60 }) },
    { weight: 2, arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 4 }) },
  ),
}));

/** `depth` levels of one kind around a scalar: the filter itself counts as the first. */
const nestedFilter = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom('array', 'object'), scalar).map(([depth, kind, inner]) => {
  let value: unknown = inner;
  for (let i = 1; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return { nest: value };
});

const filterText = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('{"tier":"gold"}', '{"tags":["tag1","tag7"]}', '{"lines":[{"sku":"sku3"}]}', '{"nest":{"a":{"a":{}}}}', '{"lines":[{"parts":[[1]]}]}') },
  { weight: 5, arbitrary: fc.dictionary(key, filterValue, { minKeys: 1, maxKeys: 5 }).map(toJsonText) },
  { weight: 2, arbitrary: nestedFilter.map(toJsonText) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }).map((n) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, Array.from({ length: 3 }, (_, j) => j)])))) },
  { weight: 1, arbitrary: fc.integer({ min: 2000, max: 9000 }).map((n) => JSON.stringify({ notes: 'x'.repeat(n) })) },
  { weight: 1, arbitrary: fc.oneof(fc.json({ maxDepth: 3 }), fc.constantFrom('[1]', 'null', '"x"', '{', '{}', '{"a":1e999999}', '{"a":"\\u0000"}', '{"a":"\\ud800"}')) },
);

describe('fuzz: list filter shapes', () => {
  let t: TestApp;
  let f: CasesFixture;
  before(async () => {
    // Hundreds of reads of one organization in a row: a budget of database time that never runs out keeps this about the filters' shapes.
    t = await startTestApp({ env: { LIST_READ_DATABASE_MS_PER_SECOND: '100000', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api' } });
    f = await givenCasesWorkflow(t);
    for (let i = 0; i < 5; i++) {
      await createdCaseId(f, {
        attributes: {
          tier: i % 2 ? 'gold' : 'silver',
          tags: Array.from({ length: 200 }, (_, j) => `tag${(i + j) % 50}`),
          lines: Array.from({ length: 30 }, (_, j) => ({ sku: `sku${j}`, qty: j, parts: [[j], { a: { b: [j] } }] })),
          nest: { a: { a: { a: { a: 1 } } } },
        },
      });
    }
  });
  after(async () => { await t.close(); await closeDb(); });

  it('answers every generated filter with 200 or a 422 with a JSON error, a 422 at a pointer whenever it is beyond the limits', async () => {
    const lists = fc.constantFrom(
      { url: f.casesPath, token: f.apiToken },
      { url: '/api/admin/v1/cases', token: f.org.adminToken },
    );
    const texts = new WeakMap<FuzzCase, string>();
    const cases = fc.record({ list: lists, text: filterText }).map(({ list, text }) => {
      const c: FuzzCase = {
        probe: { method: 'GET', url: `${list.url}?attributes=${encodeComponent(text)}`, authorization: `Bearer ${list.token}` },
        allowed: beyondLimits(text) ? [422] : [200, 422],
        auth: 'valid',
        readsBody: false,
        idsWellFormed: true,
        onSuccess: (res) => assert.deepEqual(Object.keys(res.body), ['cases', 'next_cursor']),
      };
      texts.set(c, text);
      return c;
    });
    let beyond = 0;
    let found = 0;
    const statuses = await fuzz(t, cases, 400, (c, res: InjectResult) => {
      const text = texts.get(c)!;
      if (res.status === 200) found += res.body.cases.length;
      if (!beyondLimits(text)) return;
      beyond++;
      const [problem] = res.body.validation_errors ?? [];
      assert.match(problem?.path ?? '', /^\/attributes(\/|$)/, `${text.slice(0, 200)}: ${res.text.slice(0, 300)}`);
    });
    assert.ok(beyond >= 40, `filters beyond the limits were generated (${beyond})`);
    assert.ok((statuses.get(200) ?? 0) >= 40, `filters within them were answered (${JSON.stringify([...statuses])})`);
    assert.ok(found > 0, 'some filters matched cases');
  });
});
