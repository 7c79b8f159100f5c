import { createHmac, timingSafeEqual } from 'node:crypto';

/** How each sender signs its webhooks (integrations.md §2). */
export const SIGNATURE_SCHEMES = ['github', 'stripe', 'slack', 'standard_webhooks', 'hmac'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

export const HMAC_ALGORITHMS = ['sha256', 'sha512', 'sha1'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
export type SignatureEncoding = (typeof SIGNATURE_ENCODINGS)[number];

/** A scheme's options with every default filled in, as stored and as shown. */
export type VerificationOptions =
  | { scheme: 'github' }
  | { scheme: 'stripe' | 'slack' | 'standard_webhooks'; tolerance_seconds: number }
  | { scheme: 'hmac'; header: string; algorithm: HmacAlgorithm; encoding: SignatureEncoding; prefix: string };

/** Reads one request header by its lower-case name; a repeated header arrives joined by ", ". */
export type HeaderReader = (name: string) => string | undefined;

/** Checks a request's signature headers against the exact body bytes, at `nowSeconds`. */
export type SignatureCheck = (header: HeaderReader, body: Buffer, nowSeconds: number) => boolean;

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UNIX_TIME = /^[0-9]{1,12}$/;

/** The bytes a hex or base64 signature stands for; undefined for anything else (never throws on garbage). */
function decodeSignature(text: string, encoding: SignatureEncoding): Buffer | undefined {
  if (encoding === 'hex') return text.length % 2 === 0 && HEX.test(text) ? Buffer.from(text, 'hex') : undefined;
  return BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/** Whether any candidate equals the expected MAC: lengths are public, the bytes are compared in constant time. */
function anyMatches(expected: Buffer, candidates: Iterable<Buffer | undefined>): boolean {
  let matched = false;
  for (const candidate of candidates) {
    if (candidate !== undefined && candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched;
}

function mac(algorithm: HmacAlgorithm, key: string | Buffer, prefix: string, body: Buffer): Buffer {
  return createHmac(algorithm, key).update(prefix).update(body).digest();
}

/** A `<unix seconds>` header value within `tolerance` seconds of now, either way. */
function timestampWithin(text: string | undefined, nowSeconds: number, tolerance: number): text is string {
  return text !== undefined && UNIX_TIME.test(text) && Math.abs(nowSeconds - Number(text)) <= tolerance;
}

/** Several values of one header (sent twice, or listed with commas), each with `prefix` removed. */
function listed(value: string | undefined, prefix: string, separator: RegExp = /,/): string[] {
  if (value === undefined) return [];
  return value
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item.startsWith(prefix))
    .map((item) => item.slice(prefix.length));
}

const hexSignatures = (value: string | undefined, prefix: string) => listed(value, prefix).map((text) => decodeSignature(text, 'hex'));

/** GitHub: `X-Hub-Signature-256: sha256=<hex>` over the body. */
const github = (secret: string): SignatureCheck => (header, body) =>
  anyMatches(mac('sha256', secret, '', body), hexSignatures(header('x-hub-signature-256'), 'sha256='));

/** Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>...]` over `<t>.<body>`. */
const stripe = (secret: string, tolerance: number): SignatureCheck => (header, body, nowSeconds) => {
  const value = header('stripe-signature');
  const timestamp = listed(value, 't=')[0];
  if (!timestampWithin(timestamp, nowSeconds, tolerance)) return false;
  return anyMatches(mac('sha256', secret, `${timestamp}.`, body), hexSignatures(value, 'v1='));
};

/** Slack: `X-Slack-Request-Timestamp: <unix>` and `X-Slack-Signature: v0=<hex>` over `v0:<timestamp>:<body>`. */
const slack = (secret: string, tolerance: number): SignatureCheck => (header, body, nowSeconds) => {
  const timestamp = header('x-slack-request-timestamp');
  if (!timestampWithin(timestamp, nowSeconds, tolerance)) return false;
  return anyMatches(mac('sha256', secret, `v0:${timestamp}:`, body), hexSignatures(header('x-slack-signature'), 'v0='));
};

/** Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64> [v1,<base64>...]` over `<id>.<timestamp>.<body>`. */
const standardWebhooks = (secret: string, tolerance: number): SignatureCheck => {
  const key = standardWebhooksKey(secret)!;
  return (header, body, nowSeconds) => {
    const id = header('webhook-id');
    const timestamp = header('webhook-timestamp');
    if (id === undefined || !timestampWithin(timestamp, nowSeconds, tolerance)) return false;
    const signatures = listed(header('webhook-signature'), 'v1,', /,?\s+/).map((text) => decodeSignature(text, 'base64'));
    return anyMatches(mac('sha256', key, `${id}.${timestamp}.`, body), signatures);
  };
};

/** A configured header carrying `<prefix><hex or base64>` of HMAC-`algorithm` over the body. */
const hmac = (secret: string, options: Extract<VerificationOptions, { scheme: 'hmac' }>): SignatureCheck => (header, body) => {
  const candidates = listed(header(options.header), options.prefix).map((text) => decodeSignature(text, options.encoding));
  return anyMatches(mac(options.algorithm, secret, '', body), candidates);
};

/** The key of a `whsec_<base64>` secret; undefined when the secret is not of that form. */
export function standardWebhooksKey(secret: string): Buffer | undefined {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : '';
  return BASE64.test(encoded) && encoded.length % 4 === 0 ? Buffer.from(encoded, 'base64') : undefined;
}

/** The check for a stored configuration and its (already validated) secret. */
export function signatureCheck(options: VerificationOptions, secret: string): SignatureCheck {
  switch (options.scheme) {
    case 'github':
      return github(secret);
    case 'stripe':
      return stripe(secret, options.tolerance_seconds);
    case 'slack':
      return slack(secret, options.tolerance_seconds);
    case 'standard_webhooks':
      return standardWebhooks(secret, options.tolerance_seconds);
    case 'hmac':
      return hmac(secret, options);
  }
}
