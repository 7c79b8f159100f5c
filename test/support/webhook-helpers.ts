import assert from 'node:assert/strict';
import { generateWebhook, givenDirectWorkflow, type DirectWorkflow } from './scenario.js';
import { db, type InjectResult, type TestApp } from './test-app.js';

/** The route pattern of the incoming webhook, as request log lines name it. */
export const WEBHOOK_ROUTE = '/api/external/v1/workflows/:workflowId/case_webhooks';

/** A published direct workflow with no declared attributes and no automation. */
export function directDefinition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Inbound events', case_source: 'direct', sensitive_data: false, attributes: {}, automations: {}, ...overrides };
}

export interface WebhookWorkflow extends DirectWorkflow {
  /** The webhook token of `workflowId`. */
  token: string;
}

/** An organization with an API token and a published direct workflow whose webhook URL was generated. */
export async function givenWebhook(t: TestApp, definition = directDefinition()): Promise<WebhookWorkflow> {
  const w = await givenDirectWorkflow(t, definition);
  const { token } = await generateWebhook(t, w.org, w.workflowId);
  return { ...w, token };
}

/** The webhook path; `token` undefined leaves the query string out. */
export function webhookPath(workflowId: number | string, token?: string): string {
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  return `/api/external/v1/workflows/${workflowId}/case_webhooks${query}`;
}

export interface WebhookPostOptions {
  /** Defaults to application/json; null sends no Content-Type header at all. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/**
 * POSTs to the webhook the way an outside sender would (no bearer token). A string body is
 * sent exactly as given; anything else is sent as its JSON text.
 */
export function postWebhook(
  t: TestApp,
  workflowId: number | string,
  token: string | undefined,
  body: unknown,
  { contentType = 'application/json', headers = {} }: WebhookPostOptions = {},
): Promise<InjectResult> {
  const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
  // light-my-request drops a content-type whose value is undefined.
  const type = contentType === null ? (undefined as unknown as string) : contentType;
  return t.request('POST', webhookPath(workflowId, token), { rawBody, headers: { 'content-type': type, ...headers } });
}

/** The id of a case the webhook created, checking the whole response text on the way. */
export function createdCaseId(res: InjectResult): number {
  assert.equal(res.status, 201, res.text);
  const match = /^\{"case":\{"id":([1-9][0-9]*),"source_type":"Webhook"\}\}$/.exec(res.text);
  assert.ok(match, `unexpected 201 body: ${res.text}`);
  return Number(match[1]);
}

/** Fetches a case through the cases API with the organization's API token. */
export async function fetchCase(t: TestApp, w: DirectWorkflow, caseId: number): Promise<InjectResult> {
  const res = await t.request('GET', `${w.casesPath}/${caseId}`, { token: w.apiToken });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Posts `body` (text) and returns the attributes text of the created case as the cases API shows it. */
export async function roundTrip(t: TestApp, w: WebhookWorkflow, body: string): Promise<string> {
  const id = createdCaseId(await postWebhook(t, w.workflowId, w.token, body));
  return rawAttributesText((await fetchCase(t, w, id)).text);
}

/** An error answer: the status, a JSON `{"error": "<message>"}` body and nothing of the given secrets. */
export function assertErrorBody(res: InjectResult, status: number, secrets: string[] = []): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(typeof res.body?.error, 'string', res.text);
  for (const secret of secrets) assert.ok(!res.text.includes(secret), `the ${status} body contains a secret`);
}

/** The webhook's refusal: 401 with exactly `{"error": "<message>"}`, never echoing the token. */
export function assertRefused(res: InjectResult, token?: string): void {
  assertErrorBody(res, 401, token ? [token] : []);
  assert.deepEqual(Object.keys(res.body), ['error']);
}

export async function countCases(workflowId: number): Promise<number> {
  const { rows } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM cases WHERE workflow_id = $1', [workflowId]);
  return rows[0]!.n;
}

/** Whether Postgres sees the two JSON texts as the same jsonb value. */
export async function sameJsonb(a: string, b: string): Promise<boolean> {
  const { rows } = await db().query<{ same: boolean }>('SELECT $1::jsonb = $2::jsonb AS same', [a, b]);
  return rows[0]!.same;
}

/** The text of a JSON object with `n` top-level keys. */
export function objectWithKeys(n: number): string {
  return `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
}

/** The text of a JSON object of exactly `bytes` UTF-8 bytes, padded with `fill`. */
export function objectOfBytes(bytes: number, fill = 'x'): string {
  const room = bytes - Buffer.byteLength('{"pad":""}');
  const fillBytes = Buffer.byteLength(fill);
  const text = `{"pad":"${fill.repeat(Math.floor(room / fillBytes))}${'x'.repeat(room % fillBytes)}"}`;
  assert.equal(Buffer.byteLength(text), bytes);
  return text;
}

/** The same token with its last character changed. */
export function alteredToken(token: string): string {
  return token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The `attributes` of a `{"case": {...}}` response, as the exact text the server sent. */
export function rawAttributesText(responseText: string): string {
  return rawJsonAt(responseText, ['case', 'attributes']);
}

/**
 * The exact text of the value at `path` (object keys and array indexes) in the JSON text
 * `text`, so numbers can be compared digit for digit instead of through JavaScript numbers.
 * A repeated key resolves to its last occurrence, as JSON.parse does.
 */
export function rawJsonAt(text: string, path: (string | number)[]): string {
  let start = skipSpace(text, 0);
  for (const step of path) {
    const found = childStart(text, start, step);
    if (found === undefined) throw new Error(`no ${JSON.stringify(step)} in ${text.slice(start, start + 80)}`);
    start = found;
  }
  return text.slice(start, valueEnd(text, start));
}

function childStart(text: string, start: number, step: string | number): number | undefined {
  const isObject = text[start] === '{';
  if (!isObject && text[start] !== '[') return undefined;
  let found: number | undefined;
  let i = skipSpace(text, start + 1);
  for (let index = 0; text[i] !== '}' && text[i] !== ']'; index++) {
    let matches = index === step;
    if (isObject) {
      const keyEnd = stringEnd(text, i) + 1;
      matches = JSON.parse(text.slice(i, keyEnd)) === step;
      i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    }
    if (matches) found = i;
    i = skipSpace(text, valueEnd(text, i));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return found;
}

function valueEnd(text: string, start: number): number {
  if (text[start] === '"') return stringEnd(text, start) + 1;
  if (text[start] !== '{' && text[start] !== '[') {
    let i = start;
    while (i < text.length && !' \t\n\r,}]'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  throw new Error('unterminated JSON value');
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  throw new Error('unterminated JSON string');
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  return i;
}
