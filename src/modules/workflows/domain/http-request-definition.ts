import { pointer } from '../../../shared/json/json-pointer.js';
import { isPlainObject } from '../../../shared/json/json-text.js';
import { templatesIn, wholeTemplatePath } from './template-syntax.js';

/**
 * The shape of an http_request step, and where its templates may stand: a url value is
 * percent-encoded at run time, but only a definition can make sure no value lands in the
 * scheme, host or port, and that `{{ secrets.NAME }}` stands only where the request carries
 * it to the receiver (headers, url query values, body) and never in case data. A step whose
 * url comes from an attribute sends to whatever host the case's sender names, so none of
 * that step's request may carry a secret.
 */

type Report = (path: string, error: string) => void;

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const HTTP_REQUEST_KEYS = new Set(['method', 'url', 'url_from_attribute', 'headers', 'body', 'timeout_ms', 'retries', 'save_response_as']);
const SECRET_TEMPLATE = /^secrets\./;
const SECRET_NAME = /^secrets\.[A-Z][A-Z0-9_]{0,63}$/;
const SECRETS_ONLY_IN = '{{ secrets.NAME }} may be used only in http_request headers, url query values and body';
const NO_SECRETS_TO_ATTRIBUTE_URL = '{{ secrets.NAME }} must not be used in a step with "url_from_attribute": true (the case\'s sender chooses where its request goes)';
/** Scheme and authority (user, host, port): up to the start of the path, query or fragment. */
const ORIGIN = /^https?:\/\/([^/?#]*)/i;

export function checkHttpRequest(arg: unknown, path: string, report: Report): void {
  if (!isPlainObject(arg)) {
    report(path, 'must be an object with method and url');
    return;
  }
  for (const key of Object.keys(arg)) if (!HTTP_REQUEST_KEYS.has(key)) report(pointer(path, key), `unknown key "${key}"`);
  if (typeof arg.method !== 'string' || !HTTP_METHODS.has(arg.method)) report(pointer(path, 'method'), `must be one of ${[...HTTP_METHODS].join(', ')}`);
  if (arg.url_from_attribute !== undefined && typeof arg.url_from_attribute !== 'boolean') report(pointer(path, 'url_from_attribute'), 'must be a boolean');
  const urlProblem = checkUrl(arg.url, arg.url_from_attribute === true);
  if (urlProblem) report(pointer(path, 'url'), urlProblem);
  if (arg.headers !== undefined && (!isPlainObject(arg.headers) || Object.values(arg.headers).some((v) => typeof v !== 'string'))) {
    report(pointer(path, 'headers'), 'must be an object of header name -> string');
  }
  if (arg.timeout_ms !== undefined && !(Number.isInteger(arg.timeout_ms) && (arg.timeout_ms as number) >= 1 && (arg.timeout_ms as number) <= 60_000)) {
    report(pointer(path, 'timeout_ms'), 'must be an integer from 1 to 60000');
  }
  if (arg.retries !== undefined && !(Number.isInteger(arg.retries) && (arg.retries as number) >= 0 && (arg.retries as number) <= 10)) {
    report(pointer(path, 'retries'), 'must be an integer from 0 to 10');
  }
  if (arg.save_response_as !== undefined && (typeof arg.save_response_as !== 'string' || arg.save_response_as === '')) {
    report(pointer(path, 'save_response_as'), 'must be an attribute name');
  }
  forEachString(arg.headers, pointer(path, 'headers'), (value, at) => {
    if (/[\r\n\0]/.test(value)) report(at, 'a header value must not contain CR, LF or NUL');
  });
  for (const key of ['headers', 'body'] as const) {
    if (arg.url_from_attribute === true) reportSecretTemplates(arg[key], pointer(path, key), report, NO_SECRETS_TO_ATTRIBUTE_URL);
    else checkSecretNames(arg[key], pointer(path, key), report);
  }
  for (const key of ['method', 'save_response_as'] as const) reportSecretTemplates(arg[key], pointer(path, key), report);
}

/** Why `url` is not acceptable, or undefined. */
function checkUrl(url: unknown, fromAttribute: boolean): string | undefined {
  if (typeof url !== 'string') return 'must be an http(s) URL';
  const templates = templatesIn(url);
  if (fromAttribute) {
    const whole = wholeTemplatePath(url);
    if (whole === undefined) return 'with url_from_attribute the url must be exactly one template, like "{{ attributes.link }}"';
    return SECRET_TEMPLATE.test(whole) ? SECRETS_ONLY_IN : undefined;
  }
  if (wholeTemplatePath(url) !== undefined) return 'a url that is one template needs "url_from_attribute": true';
  const origin = ORIGIN.exec(url);
  if (!origin) return 'must be an http(s) URL (templates allowed after the host)';
  if (/[{}]/.test(origin[1]!)) return 'the scheme, host and port must not contain templates (use "url_from_attribute": true for a whole url from an attribute)';
  for (const { path, index } of templates) {
    if (!SECRET_TEMPLATE.test(path)) continue;
    if (!isQueryValue(url.slice(0, index))) return `${SECRETS_ONLY_IN}: in a url, only as a query value`;
    if (!SECRET_NAME.test(path)) return `{{ ${path} }}: secret names match [A-Z][A-Z0-9_]{0,63}`;
  }
  return undefined;
}

/** Whether text ending here stands in a query parameter's value: after `?`, after the `=` of its pair, before any `#`. */
function isQueryValue(before: string): boolean {
  const query = before.indexOf('?');
  if (query < 0 || before.includes('#')) return false;
  const pair = before.slice(Math.max(before.lastIndexOf('&'), query) + 1);
  return pair.includes('=');
}

/** `{{ secrets.NAME }}` where secrets are allowed: the name must be one a secret can have. */
function checkSecretNames(value: unknown, path: string, report: Report): void {
  forEachString(value, path, (text, at) => {
    for (const t of templatesIn(text)) if (SECRET_TEMPLATE.test(t.path) && !SECRET_NAME.test(t.path)) report(at, `{{ ${t.path} }}: secret names match [A-Z][A-Z0-9_]{0,63}`);
  });
}

/** A secret anywhere else would be written into the case, the timeline or an error. */
export function reportSecretTemplates(value: unknown, path: string, report: Report, error = SECRETS_ONLY_IN): void {
  forEachString(value, path, (text, at) => {
    if (templatesIn(text).some((t) => SECRET_TEMPLATE.test(t.path))) report(at, error);
  });
}

function forEachString(value: unknown, path: string, visit: (text: string, path: string) => void): void {
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((item, i) => forEachString(item, pointer(path, i), visit));
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) forEachString(item, pointer(path, key), visit);
}
