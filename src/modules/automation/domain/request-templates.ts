import { isPlainObject } from '../../../shared/json/json-text.js';
import { templatesIn, wholeTemplatePath } from '../../workflows/domain/template-syntax.js';
import { renderText, type TemplateScope } from './templates.js';

/**
 * Templates in an http_request's url and headers, rendered so that a value cannot move the
 * request: a url value is percent-encoded as one component, so it never changes the scheme,
 * host, port or the path above it (definitions put templates only after the host, see
 * workflow-definition.ts), and a header value never carries a line break into the request.
 */

type Rendered<T> = { ok: true; value: T } | { ok: false; error: string };

const SECRET_PREFIX = 'secrets.';

/** `.` and `..` segments, also percent-encoded: the URL parser resolves both forms. */
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/** `..` written into a path segment by a value would climb; the parser resolves `%2e%2e` too, so a dot segment a value creates is refused. */
function dotSegments(url: string): number {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/, 1)[0]!;
  return path.split('/').filter((segment) => DOT_SEGMENT.test(segment)).length;
}

/**
 * The url to call. With `url_from_attribute` the url is the value of its one template
 * (an http(s) URL; the outbound SSRF guard checks where it points as for any url).
 */
export function renderUrl(url: string, fromAttribute: boolean, scope: TemplateScope): Rendered<string> {
  if (fromAttribute) {
    const value = renderText(url, scope);
    return /^https?:\/\//i.test(value) ? { ok: true, value } : { ok: false, error: `url from ${wholeTemplatePath(url) ?? 'the attribute'} is not an http(s) URL` };
  }
  const value = renderText(url, scope, encodeURIComponent);
  if (dotSegments(value) > dotSegments(renderText(url, scope, () => 'x'))) return { ok: false, error: 'a url template value makes a "." or ".." path segment' };
  return { ok: true, value };
}

/** Header values with their templates filled in; a value holding CR, LF or NUL fails the step before anything is sent. */
export function renderHeaders(headers: Record<string, string>, scope: TemplateScope): Rendered<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(headers)) {
    const value = renderText(template, scope);
    if (/[\r\n]/.test(value)) return { ok: false, error: `header ${name} contains a line break` };
    if (value.includes('\0')) return { ok: false, error: `header ${name} contains a NUL character` };
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: out };
}

/** The names of the organization secrets used by `{{ secrets.NAME }}` templates anywhere in `value`. */
export function secretNamesIn(value: unknown, names = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const { path } of templatesIn(value)) if (path.startsWith(SECRET_PREFIX)) names.add(path.slice(SECRET_PREFIX.length));
  } else if (Array.isArray(value)) {
    for (const item of value) secretNamesIn(item, names);
  } else if (isPlainObject(value)) {
    for (const item of Object.values(value)) secretNamesIn(item, names);
  }
  return names;
}

/**
 * The forms a secret value can take in text the service shows or stores: as given; percent-
 * encoded into a url (as a component, and as a form value with `+` for a space); escaped inside
 * a JSON string (quotes, backslashes, control characters; and, as other serializers such as
 * PHP's write it, every character past ASCII as `\u` escapes, either case of hex, and `/` as
 * `\/`); and base64 (standard and url-safe), which an extension step may build a header from.
 * Templates have no filters, so these are all a definition can make of a value.
 */
export function secretForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const asciiJson = json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const bytes = Buffer.from(value, 'utf8');
  const upperJson = asciiJson.replace(/\\u[0-9a-f]{4}/g, (e) => `\\u${e.slice(2).toUpperCase()}`);
  const jsonForms = [json, asciiJson, upperJson].flatMap((form) => [form, form.replaceAll('/', '\\/')]);
  const forms = [value, percentEncoded(value), new URLSearchParams({ v: value }).toString().slice(2), ...jsonForms, bytes.toString('base64'), bytes.toString('base64url')];
  return [...new Set(forms)].filter((form) => form !== '');
}

/** Empty for text with a lone surrogate, which encodeURIComponent refuses: no url can carry that form. */
function percentEncoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '';
  }
}

/**
 * Replaces every secret value, in each of its {@link secretForms}, with `[secret NAME]`:
 * whatever a step reports (its url, a network error echoing a header, a body a receiver echoed)
 * never shows a secret. Where the value is at hand before it is written out (a request body, a
 * step's note), {@link maskSecrets} masks it there instead, which needs no escaped forms.
 */
export function redactSecrets(secrets: Readonly<Record<string, string>>): (text: string) => string {
  const forms = Object.entries(secrets)
    .flatMap(([name, value]) => secretForms(value).map((form) => ({ form, name })))
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.form.length - a.form.length);
  return (text) => forms.reduce((out, { form, name }) => out.replaceAll(form, `[secret ${name}]`), text);
}

/** `value` with every string in it, keys included, at any depth, passed through `redact`. */
export function maskSecrets(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, redact));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, redact(key), { value: maskSecrets(item, redact), enumerable: true, writable: true, configurable: true });
  return out;
}
