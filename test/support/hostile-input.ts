/**
 * The hostile-input suite's generators (fast-check) and its one check of every answer: bodies
 * that are not quite JSON, odd content types and credentials, path ids and query strings an
 * attacker would try. Used by test/e2e/fuzz.e2e-spec.ts.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertNoInternals } from './foundation-assertions.js';
import type { InjectResult, TestApp } from './test-app.js';

export const MAX_BODY_BYTES = 1_048_576;
export const MAX_DEPTH = 64;

// ---------------------------------------------------------------------------------------------
// Requests and their answers

/** One request. `contentType: null` sends no Content-Type header; `body` undefined sends no body. */
export interface Probe {
  method: string;
  url: string;
  body?: string | Buffer;
  contentType?: string | null;
  /** An array is the same header sent several times (Node keeps the first Authorization). */
  authorization?: string | string[];
  headers?: Record<string, string>;
}

/**
 * What the caller presents: `valid` a live credential of the route's kind and organization,
 * `foreign` a live one of another organization, `invalid` anything else.
 */
export type Auth = 'valid' | 'foreign' | 'invalid';

export interface Credential {
  authorization?: string | string[];
  auth: Auth;
}

/** A generated request, the statuses its endpoint documents, and what decides its answer. */
export interface FuzzCase {
  probe: Probe;
  allowed: readonly number[];
  auth: Auth;
  /** The handler reads the body (a DTO or the webhook): an unparseable one is a 422 there. */
  readsBody: boolean;
  /** The webhook reads any Content-Type as JSON. */
  lenient?: boolean;
  /** Every path id is well formed (a positive integer below 2^53), so no 404 comes before the body. */
  idsWellFormed: boolean;
  /** A further check of a successful answer. */
  onSuccess?: (res: InjectResult) => void;
}

let sent = 0;
/** How many requests the generators have sent so far in this process. */
export const requestsSent = () => sent;

export async function send(t: TestApp, probe: Probe): Promise<InjectResult> {
  const headers: Record<string, unknown> = { ...probe.headers };
  if (probe.authorization !== undefined) headers.authorization = probe.authorization;
  // light-my-request leaves out a Content-Type whose value is undefined.
  headers['content-type'] = probe.body === undefined || probe.contentType === null ? undefined : (probe.contentType ?? 'application/json');
  sent++;
  return t.request(probe.method, probe.url, { rawBody: probe.body, headers: headers as Record<string, string> });
}

const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** Internal wording that must never reach a client: driver, ORM and Postgres messages. */
const INTERNAL_WORDING = /QueryFailedError|TypeORM|EntityNotFound|duplicate key|violates|syntax error at or near|invalid input syntax|relation "|column "|SQLSTATE|\bpg_|ECONNREFUSED|Cannot read propert|is not a function|undefined is not|Maximum call stack/i;

/** Internal wording in an answer, unless the probe itself sent it (a validation message may quote a key such as `pG_8`). */
function internalWording(answer: string, probe: Probe): string | undefined {
  const sent = `${probe.url} ${Buffer.isBuffer(probe.body) ? probe.body.toString('utf8') : (probe.body ?? '')}`.toLowerCase();
  const pattern = new RegExp(INTERNAL_WORDING.source, 'gi');
  for (const [found] of answer.matchAll(pattern)) if (!sent.includes(found.toLowerCase())) return found;
  return undefined;
}

export function bodyBytes(body: string | Buffer | undefined): number {
  return body === undefined ? 0 : Buffer.byteLength(body);
}

/** Why the body cannot be read as JSON (as UTF-8 text), or undefined when it can. */
export function bodyProblem(body: string | Buffer | undefined): 'empty' | 'unparseable' | 'too deep' | undefined {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : (body ?? '');
  if (text.trim() === '') return 'empty';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'unparseable';
  }
  return depthOf(value) > MAX_DEPTH ? 'too deep' : undefined;
}

/** Nesting depth of a parsed JSON value (`{}` is 1, a scalar 0), without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function hasMalformedEscape(url: string): boolean {
  try {
    decodeURIComponent(url.split('?')[0]!);
    return false;
  } catch {
    return true;
  }
}

/**
 * The status the contract fixes for this request, when it does, in the order the service
 * decides: a malformed URL is 400, a bad credential 401 (checked before the body is read), a
 * Content-Type that is not a media type 415, a body over 1 MB 413, a non-JSON media type 415
 * (except on the webhook), and for a caller who got in, an unreadable or too-deep body 422.
 */
export function forcedStatus(c: FuzzCase): number | undefined {
  const { probe } = c;
  if (hasMalformedEscape(probe.url)) return 400;
  if (c.auth === 'invalid') return 401;
  // An empty body without a Content-Type is no body at all; anything else goes through the parser.
  if (probe.body !== undefined && INVALID_TYPES.includes(probe.contentType!)) return 415; // Fastify refuses it before reading the body
  if (bodyBytes(probe.body) > MAX_BODY_BYTES) return 413;
  const parsed = probe.body !== undefined && !(bodyBytes(probe.body) === 0 && probe.contentType === null);
  if (parsed && !c.lenient && !JSON_MEDIA_TYPE.test(probe.contentType === undefined ? 'application/json' : (probe.contentType ?? ''))) return 415;
  if (c.auth === 'valid' && c.readsBody && c.idsWellFormed && parsed && bodyProblem(probe.body) !== undefined) return 422;
  return undefined;
}

function summary({ probe, auth }: FuzzCase): string {
  const body = probe.body === undefined ? '(none)' : Buffer.isBuffer(probe.body) ? `<bytes ${probe.body.subarray(0, 100).toString('hex')}>` : JSON.stringify(probe.body.slice(0, 300));
  const credential = JSON.stringify(probe.authorization)?.slice(0, 120);
  const headers = probe.headers && Object.keys(probe.headers).length ? ` [headers ${JSON.stringify(probe.headers).slice(0, 300)}]` : '';
  return `${probe.method} ${probe.url.slice(0, 300)} [auth ${auth} ${credential}] [content-type ${JSON.stringify(probe.contentType)}]${headers} body ${body} (${bodyBytes(probe.body)} bytes)`;
}

function describeProbe(c: FuzzCase, res: InjectResult): string {
  return `${summary(c)} → ${res.status} ${res.text.slice(0, 300)}`;
}

/**
 * Sends the case and checks its answer: never a 5xx, one of the endpoint's documented
 * statuses (the exact one when the contract fixes it), JSON with a string `error` on every
 * error, and nothing internal in it. A `foreign` caller never succeeds.
 */
export async function checkAnswer(t: TestApp, c: FuzzCase): Promise<InjectResult> {
  const res = await send(t, c.probe);
  const what = () => describeProbe(c, res);
  assert.ok(res.status < 500, `5xx: ${what()}`);
  const forced = forcedStatus(c);
  // A malformed URL is answered 400 before any route is chosen, on every endpoint.
  const documented = forced === 400 ? [...c.allowed, 400] : c.allowed;
  assert.ok(documented.includes(res.status), `undocumented status (documented: ${documented.join(', ')}): ${what()}`);
  if (forced !== undefined) assert.equal(res.status, forced, `expected ${forced}: ${what()}`);
  if (c.auth === 'foreign') assert.ok(res.status >= 400, `another organization's credential succeeded: ${what()}`);
  if (res.status === 204) {
    assert.equal(res.text, '', what());
    return res;
  }
  assert.match(String(res.headers['content-type']), /^application\/json/, `JSON content type: ${what()}`);
  assert.notEqual(res.body, undefined, `a JSON body: ${what()}`);
  if (res.status >= 400) {
    assert.equal(typeof res.body?.error, 'string', `a string error: ${what()}`);
    assert.notEqual(res.body.error.trim(), '', `a non-empty error: ${what()}`);
    assertNoInternals(res.text);
    assert.equal(internalWording(res.text, c.probe), undefined, `internal wording: ${what()}`);
  } else {
    c.onSuccess?.(res);
  }
  return res;
}

/**
 * Runs `numRuns` generated cases through `checkAnswer`; `seen` gets every case with its answer.
 * Returns how many times each status was answered.
 */
export async function fuzz(
  t: TestApp,
  cases: fc.Arbitrary<FuzzCase>,
  numRuns: number,
  seen: (c: FuzzCase, res: InjectResult) => void = () => undefined,
): Promise<Map<number, number>> {
  // A counterexample is reported in one short line, not with its megabyte of body.
  const shown = cases.map((c) => Object.assign(c, { [fc.toStringMethod]: () => summary(c) }));
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(shown, async (c) => {
      const res = await checkAnswer(t, c);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      seen(c, res);
    }),
    { numRuns, endOnFailure: true },
  );
  return statuses;
}

// ---------------------------------------------------------------------------------------------
// Strings, numbers and values

const sign = fc.constantFrom('', '-');
const digits = (min: number, max: number) => fc.integer({ min, max }).chain((n) => fc.stringMatching(new RegExp(`^[1-9][0-9]{${n - 1}}$`)));

/**
 * JSON number texts an attacker writes: huge and tiny exponents (up to and past what Postgres'
 * numeric holds), long mantissas, negative zero, and the forms around the 40-character rule.
 */
export const hostileNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '1e131071', '-1e131071', '1e131072', '1e-16383', '1e-16384', '5e-324', '1.7976931348623157e308', '1e41', '1e40', '1e39', '-1e38', '-1e39',
    '1e-38', '1e-39', '0e-99999', '0e99999', '-0', '-0.0', '-0e-10', '-0E+400', '6.02e23', '1e-30', '9007199254740993', '18446744073709551617',
  ),
  fc
    .tuple(sign, fc.constantFrom('0', '1', '9', '1.5', '0.000001', '123456789.123456789'), fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'),
      fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 60, max: 200_000 }), fc.constantFrom(2 ** 31, 2 ** 53)))
    .map(([s, mantissa, e, exponent]) => `${s}${mantissa}${e}${exponent}`),
  fc.tuple(sign, digits(1, 400)).map(([s, whole]) => `${s}${whole}`),
  fc.tuple(sign, digits(1, 60), fc.stringMatching(/^[0-9]{1,300}$/), fc.constantFrom('', 'e5', 'e-5', 'e50', 'e-50')).map(([s, whole, fraction, e]) => `${s}${whole}.${fraction}${e}`),
);

/** A marker string that `toJsonText` replaces by a bare number literal JavaScript cannot hold. */
const NUMBER_MARKER = '\u0001NUM:';
export const numberLiteral = fc
  .oneof(fc.constantFrom('1e999', '-1e999', '1e-999', '1e400', '123456789012345678901234567890', '-0', '0.1e1', '1E+2', '1e1000000', '9007199254740993'), hostileNumberText)
  .map((n) => `${NUMBER_MARKER}${n}`);

/** JSON text of a value, with number markers turned into their literals. */
export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/"\\u0001NUM:([^"]*)"/g, '$1');
}

/** Percent-encodes every byte of the string's UTF-8 form: always a valid URL component. */
export function encodeBytes(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

/** encodeURIComponent, or every byte encoded when the string holds a lone surrogate. */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeBytes(value);
  }
}

/** Strings an attacker sends: any code point (lone surrogates included), injections, NUL, long. */
export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "' OR 1=1 --", "x' OR '1'='1", "'; DROP TABLE cases; --", '" OR ""="', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\ud83d',
      '\u202e\u0041', '\ufeff', '%00', '../../etc/passwd', '${7*7}', '{{7*7}}', '<script>alert(1)</script>', '__proto__', 'constructor',
      ' ', '', '\t\n', 'Open', 'Closed', 'Error', 'Triage', 'live', 'test', 'api', 'admin', 'é'.repeat(100),
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 190, max: 20_000 }).map((n) => 'x'.repeat(n)) },
);

export const hostileKey = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', '\u0000', '\ud800', 'a/b', '~0', '~1', '$where', "' OR 1=1 --", 'toString', 'hasOwnProperty') },
);

const hostileScalar = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: numberLiteral },
);

/** Values an attacker puts where a template inserts them into an http_request url or header. */
export const templateValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '\r\nX-Injected: 1', 'a\nb', '\r', '\u0000', 'a%00b', '%00', '@evil.example/x', 'user@evil.example', '../', '../../admin', '..', '.', '%2e%2e',
      '%2e%2e%2f', '..%2f', '//evil.example', '#frag', '?q=1&admin=1', ':8080', 'evil.example:443', '\\evil.example', 'http://evil.example/', '{{ secrets.X }}', '}}{{',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileKey, hostileScalar, { maxKeys: 4 }) },
);

/** An object with the given fields (some left out) plus a few unexpected keys, all as own data properties. */
export function objectWith(fields: Record<string, fc.Arbitrary<unknown>>, extraKeys = 2): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(hostileKey, hostileValue, { maxKeys: extraKeys }) }))
    .map(([known, extra]) => Object.fromEntries([...Object.entries(extra), ...Object.entries(known)]));
}

// ---------------------------------------------------------------------------------------------
// Bodies

const garbage = fc.constantFrom('}', ']', ',', ' trailing', '\u0000', 'null', '{}', '"', '\\', '//', '/*', ';', '\ud800', '\n{"a":1}');

/** JSON text broken the ways clients break it. */
export const malformedJson = fc.oneof(
  fc.tuple(fc.json({ maxDepth: 3 }), fc.nat()).map(([text, cut]) => text.slice(0, cut % Math.max(text.length, 1))),
  fc.tuple(fc.json({ maxDepth: 3 }), garbage).map(([text, tail]) => text + tail),
  fc.tuple(garbage, fc.json({ maxDepth: 3 })).map(([head, text]) => head + text),
  fc.constantFrom(
    '{"a":1,}', "{'a':1}", '{a:1}', '{"a" 1}', '[1,]', 'NaN', 'Infinity', 'undefined', '{"a":01}', '{"a":.5}', '{"a":+1}', '{"a":0x10}',
    '{"a":"\\x41"}', '{"a":"\\u12"}', '{"a":"\\ud800', '{"a":"line\nbreak"}', '{"a":"tab\tin"}', '\ufeff{}', '{"a":1}{"b":2}', '{"__proto__":',
    '{"a":1} // comment', '{"a":true false}', '"unterminated', '[[[[[', '}}}}', '{"a":-}', '{"a":1e}', '{"a":--1}',
  ),
);

export const anyJsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }).map(toJsonText),
  fc.anything({ maxDepth: 3 }).map((v) => {
    try {
      return toJsonText(v);
    } catch {
      return 'null'; // BigInt and the like have no JSON form
    }
  }),
);

export const rawBytes = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes));

/** A JSON object whose string value holds bytes that are not UTF-8 (lone continuation bytes, truncated sequences, 0xFF). */
export function invalidUtf8Object(key: string): fc.Arbitrary<Buffer> {
  return fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .map((bytes) => Buffer.concat([Buffer.from(`{"${key}":"`), Buffer.from(bytes.filter((b) => b >= 0x20 && b !== 0x22 && b !== 0x5c)), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]));
}

/** `{"k0":0, ..., "k<n-1>":n-1}` plus `extra` members, as text. */
export function objectWithKeys(n: number, extra: Record<string, unknown> = {}): string {
  return toJsonText({ ...extra, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) });
}

/** `depth` levels of arrays or of objects (`{"a":{"a":...}}`), innermost holding `1`. */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export const manyKeys = (extra: Record<string, unknown>) => fc.integer({ min: 900, max: 5_000 }).map((n) => objectWithKeys(n, extra));

export const deeplyNested = fc
  .tuple(fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 70, max: 100_000 })), fc.constantFrom('array' as const, 'object' as const))
  .map(([depth, kind]) => nested(depth, kind));

/** A JSON object with one very long string member (up to a little over 1 MB in all). */
export const longStringBody = (key: string) =>
  fc.oneof(fc.integer({ min: 1_000, max: 200_000 }), fc.integer({ min: MAX_BODY_BYTES - 40, max: MAX_BODY_BYTES + 200 })).map((n) => `{"${key}":"${'x'.repeat(n)}"}`);

/**
 * Request bodies: mostly `shaped` ones (valid or nearly, so the handler's own checks run), then
 * random and malformed JSON, random bytes, invalid UTF-8, thousands of keys, deep nesting, long
 * strings.
 */
export function hostileBody(shaped: fc.Arbitrary<unknown>, stringKey: string, keysExtra: Record<string, unknown> = {}): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    { weight: 40, arbitrary: shaped.map(toJsonText) },
    { weight: 10, arbitrary: anyJsonText },
    { weight: 10, arbitrary: malformedJson },
    { weight: 4, arbitrary: rawBytes },
    { weight: 4, arbitrary: invalidUtf8Object(stringKey) },
    { weight: 2, arbitrary: manyKeys(keysExtra) },
    { weight: 2, arbitrary: deeplyNested },
    { weight: 2, arbitrary: longStringBody(stringKey) },
    { weight: 3, arbitrary: fc.constantFrom('', ' ', '\n', 'null', '[]', '""', '0', 'true', '{}', '[{}]', '"{}"') },
  );
}

// ---------------------------------------------------------------------------------------------
// Content types, credentials, ids and query strings

/** Media types that are JSON: the only ones accepted outside the webhook. */
export const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json', 'application/json;charset=latin1'];
/** Well-formed media types that are not JSON. */
export const OTHER_TYPES = ['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/xml', 'text/json', 'application/jsonx', 'application/octet-stream', 'text/html; charset=utf-8', '*/*; q='];
/** Content-Type values that are not media types at all. */
export const INVALID_TYPES = ['garbage', 'json', '', ';', 'application/', '/json', 'application/json/extra', 'application json', '\u00e9/\u00e9'];

/** Content-Type header: mostly JSON; `invalid` adds values that are not media types. null sends none. */
export function contentType(invalid: boolean): fc.Arbitrary<string | null> {
  return fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...JSON_TYPES) },
    { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
    { weight: 1, arbitrary: fc.constant(null) },
    ...(invalid ? [{ weight: 1, arbitrary: fc.constantFrom(...INVALID_TYPES) }] : []),
  );
}

/** Legal but odd header text: printable ASCII, tabs and Latin-1 (CR and LF are refused by inject itself). */
const headerText = fc.string({ unit: fc.integer({ min: 0x09, max: 0xff }).filter((c) => c === 0x09 || (c >= 0x20 && c !== 0x7f)).map((c) => String.fromCharCode(c)), maxLength: 60 });

/**
 * An Authorization header for a route that takes `secret`: mostly that secret (in every legal
 * spelling), else none, garbage, a very long one, duplicates, or `wrong` credentials (another
 * kind of token); `foreign` ones are live credentials of another organization.
 */
export function credential(secret: string, wrong: string[], foreign: string[] = []): fc.Arbitrary<Credential> {
  const invalid = (authorization: fc.Arbitrary<string | string[] | undefined>) => authorization.map((a): Credential => ({ authorization: a, auth: 'invalid' }));
  return fc.oneof(
    { weight: 24, arbitrary: fc.constant<Credential>({ authorization: `Bearer ${secret}`, auth: 'valid' }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(`bearer ${secret}`, `BEARER ${secret}`, `Bearer    ${secret}`, `Bearer ${secret}  `, [`Bearer ${secret}`, 'Bearer garbage'])
        .map((a): Credential => ({ authorization: a, auth: 'valid' })),
    },
    { weight: 1, arbitrary: invalid(fc.constant(undefined)) },
    {
      weight: 2,
      arbitrary: invalid(
        fc.constantFrom(
          '', 'Bearer', 'Bearer ', secret, `Basic ${Buffer.from(`u:${secret}`).toString('base64')}`, `Bearer\t${secret}`, `Bearer ${secret} x`, `Bearer ${secret}x`,
          `Bearer ${secret.slice(0, -1)}`, `Bearer ${secret.toUpperCase()}`, 'Bearer api_', 'Bearer adm_', `Token ${secret}`, ['Bearer garbage', `Bearer ${secret}`],
        ),
      ),
    },
    { weight: 1, arbitrary: invalid(headerText.map((s) => `Bearer ${s}`)) },
    { weight: 1, arbitrary: invalid(headerText) },
    { weight: 1, arbitrary: invalid(fc.integer({ min: 1_000, max: 100_000 }).map((n) => `Bearer ${'a'.repeat(n)}`)) },
    ...(wrong.length ? [{ weight: 2, arbitrary: invalid(fc.constantFrom(...wrong).map((s) => `Bearer ${s}`)) }] : []),
    ...(foreign.length ? [{ weight: 2, arbitrary: fc.constantFrom(...foreign).map((s): Credential => ({ authorization: `Bearer ${s}`, auth: 'foreign' })) }] : []),
  );
}

/** Longer path parameters are refused by the router with 414 (see the hand-written cases). */
export const MAX_PARAM_LENGTH = 200;

/** A path id as the pipe accepts it: a positive integer below 2^53 (at most 16 digits). */
export function isWellFormedId(segment: string): boolean {
  return /^[1-9][0-9]{0,15}$/.test(segment) && Number.isSafeInteger(Number(segment));
}

/**
 * Path ids that name nothing: text, zero, negatives, exponents, hex, beyond 2^53 and 2^64,
 * unicode digits, encoded slashes and NULs, overlong segments, malformed escapes, and large
 * well-formed ids no row has. No dot segments: inject resolves them (as a WHATWG URL does,
 * `%2e%2e` included) before the router sees the path, so they would name another route.
 */
export const hostileId = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '0', '00', '-1', '-0', '+1', '1e3', '1E3', '0x10', '0b1', '0o7', '1.0', '1.5', '01', '%201', '1%20', '%20', 'NaN', 'Infinity', '-Infinity', 'null',
      'undefined', 'true', '%5B%5D', '%7B%7D', '9007199254740992', '9007199254740993', '18446744073709551615', '18446744073709551616',
      '18446744073709551617', '340282366920938463463374607431768211456', '%D9%A1', '%EF%BC%91', '%E0%A5%A7', '%2F', '%2F1', '1%2F2', '%00', '1%00',
      "1'%20OR%20'1'%3D'1", '1%3B%20DROP%20TABLE%20cases', '%27', '%22', '%5C', 'a'.repeat(200), '1'.repeat(200),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('%', '%G1', '%E0%A4%A', '%ZZ', '%C3', '%FF', '%ED%A0%80') },
  { weight: 2, arbitrary: fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: -1e9, max: 0 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 1e12, max: Number.MAX_SAFE_INTEGER }).map(String) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(encodeBytes).filter((id) => id.length <= MAX_PARAM_LENGTH) },
);

/** Some of the given real ids, else hostile ones. */
export function pathId(...real: number[]): fc.Arbitrary<string> {
  return real.length ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...real.map(String)) }, { weight: 1, arbitrary: hostileId }) : hostileId;
}

/** Query values an attacker tries: SQL, NUL, signs and exponents, overflow, unicode, empty. */
export const queryValue = fc.oneof(
  { weight: 2, arbitrary: hostileString.filter((s) => s.length < 300) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "x' OR '1'='1", "' OR 1=1 --", "Open' --", "'; DROP TABLE cases; --", '-1', '0', '1e9', '1e3', '101', '100', '1', '25', '1.5', '0x10', ' 1',
      '\u0000', '', 'live', 'test', 'API', 'Webhook', 'Open', 'Closed', '9007199254740993', '18446744073709551617', '١', '%',
    ),
  },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** A query string from `keys` (plus odd ones), encoded, or raw and broken now and then. */
export function queryString(keys: string[], value: fc.Arbitrary<string> = queryValue): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.constantFrom(...keys.map((k) => `${k}[]`), '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'a[b]') },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  const encoded = fc.array(fc.tuple(key, value), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&'));
  const raw = fc.constantFrom('&&', '=', '==', '&=&', `${keys[0]}`, `${keys[0]}=a=b`, `${keys[0]}=%`, `${keys[0]}=%ZZ`, `${keys[0]}=%ED%A0%80`, `${keys[0]}=+`, `${keys[0]}=%00`, '%=%');
  return fc.oneof({ weight: 6, arbitrary: encoded }, { weight: 1, arbitrary: raw });
}
