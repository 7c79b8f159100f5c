import { InvalidRequestError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { standardWebhooksKey } from './signature-schemes.js';

export const DEFAULT_TOLERANCE_SECONDS = 300;
export const MAX_TOLERANCE_SECONDS = 3600;
export const MAX_VERIFICATION_SECRET_BYTES = 1024;

/** A scheme's options as stored and shown: `scheme` and the options it takes, defaults filled in. */
export type StoredVerificationOptions = { scheme: string; [option: string]: string | number };

/**
 * What the settings API needs of a sender scheme, built-in or an extension's: the options it
 * takes besides `scheme` and `secret` (any other is refused), and how it settles them (its own
 * defaults, and the problems of settings it cannot use).
 */
export interface SchemeRules {
  readonly name: string;
  readonly options: readonly string[];
  settle(options: Record<string, unknown>, secret: string): { options: Record<string, unknown>; problems: ValidationProblem[] };
}

/** A webhook's verification as the admin API sets it: the scheme's options (defaults filled in) and the secret. */
export interface VerificationSetting {
  options: StoredVerificationOptions;
  secret: string;
}

const settled = (options: Record<string, unknown>, problems: ValidationProblem[] = []) => ({ options, problems });

/** The built-in schemes' rules (integrations.md §2); their signatures are checked by signature-schemes.ts. */
export const BUILT_IN_SCHEME_RULES: readonly SchemeRules[] = [
  { name: 'github', options: [], settle: (options) => settled(options) },
  { name: 'stripe', options: ['tolerance_seconds'], settle: (options) => settled(options) },
  { name: 'slack', options: ['tolerance_seconds'], settle: (options) => settled(options) },
  {
    name: 'standard_webhooks',
    options: ['tolerance_seconds'],
    settle: (options, secret) =>
      settled(options, standardWebhooksKey(secret)?.length ? [] : [{ path: '/secret', error: 'a Standard Webhooks secret is "whsec_" followed by base64' }]),
  },
  {
    name: 'hmac',
    options: ['header', 'algorithm', 'encoding', 'prefix'],
    settle: (options) =>
      settled(
        { header: options.header, algorithm: options.algorithm ?? 'sha256', encoding: options.encoding ?? 'hex', prefix: options.prefix ?? '' },
        options.header === undefined ? [{ path: '/header', error: 'header is required for the scheme "hmac"' }] : [],
      ),
  },
];

/**
 * The scheme-dependent rules of a verification body whose fields each passed the request
 * class: a registered scheme, only the options it takes, then the scheme's own rules. A taken
 * `tolerance_seconds` defaults to 300 and a `header` is kept in lower case (header names are
 * case-insensitive; requests carry them in lower case). Every problem is reported at once (422
 * with `validation_errors`).
 */
export function verificationSetting(body: Record<string, unknown>, schemes: ReadonlyMap<string, SchemeRules>): VerificationSetting {
  const name = body.scheme as string;
  const secret = body.secret as string;
  const scheme = schemes.get(name);
  if (!scheme) {
    throw new InvalidRequestError('invalid request body', [{ path: '/scheme', error: `scheme must be one of ${[...schemes.keys()].map((known) => `"${known}"`).join(', ')}` }]);
  }
  const problems: ValidationProblem[] = [];
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'scheme' || key === 'secret') continue;
    if (scheme.options.includes(key)) given[key] = value;
    else problems.push({ path: pointer('', key), error: `the scheme "${name}" takes no "${key}"` });
  }
  if (scheme.options.includes('tolerance_seconds')) given.tolerance_seconds ??= DEFAULT_TOLERANCE_SECONDS;
  if (typeof given.header === 'string') given.header = given.header.toLowerCase();
  const result = scheme.settle(given, secret);
  problems.push(...result.problems);
  if (problems.length) throw new InvalidRequestError('invalid request body', problems);
  const options: StoredVerificationOptions = { scheme: name };
  // Only the options it takes are stored: what a scheme settles can never overwrite `scheme`.
  for (const option of scheme.options) if (result.options[option] !== undefined) options[option] = result.options[option] as string | number;
  return { options, secret };
}
