import { InvalidRequestError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { type HmacAlgorithm, type SignatureEncoding, type SignatureScheme, standardWebhooksKey, type VerificationOptions } from './signature-schemes.js';

export const DEFAULT_TOLERANCE_SECONDS = 300;
export const MAX_TOLERANCE_SECONDS = 3600;
export const MAX_VERIFICATION_SECRET_BYTES = 1024;

/** The options each scheme takes besides `scheme` and `secret`; any other key is refused for it. */
const SCHEME_OPTIONS: Record<SignatureScheme, readonly string[]> = {
  github: [],
  stripe: ['tolerance_seconds'],
  slack: ['tolerance_seconds'],
  standard_webhooks: ['tolerance_seconds'],
  hmac: ['header', 'algorithm', 'encoding', 'prefix'],
};

/** A webhook's verification as the admin API sets it: the scheme's options (defaults filled in) and the secret. */
export interface VerificationSetting {
  options: VerificationOptions;
  secret: string;
}

/**
 * The scheme-dependent rules of a verification body whose fields each passed the request
 * class: which options the scheme takes, `header` for `hmac`, the `whsec_` form of a Standard
 * Webhooks secret. Every problem is reported at once (422 with `validation_errors`).
 */
export function verificationSetting(body: Record<string, unknown>): VerificationSetting {
  const scheme = body.scheme as SignatureScheme;
  const secret = body.secret as string;
  const allowed = SCHEME_OPTIONS[scheme];
  const problems: ValidationProblem[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'scheme' && key !== 'secret' && !allowed.includes(key)) problems.push({ path: pointer('', key), error: `the scheme "${scheme}" takes no "${key}"` });
  }
  if (scheme === 'hmac' && body.header === undefined) problems.push({ path: pointer('', 'header'), error: 'header is required for the scheme "hmac"' });
  if (scheme === 'standard_webhooks' && !standardWebhooksKey(secret)?.length) {
    problems.push({ path: pointer('', 'secret'), error: 'a Standard Webhooks secret is "whsec_" followed by base64' });
  }
  if (problems.length) throw new InvalidRequestError('invalid request body', problems);
  return { options: optionsOf(scheme, body), secret };
}

function optionsOf(scheme: SignatureScheme, body: Record<string, unknown>): VerificationOptions {
  switch (scheme) {
    case 'github':
      return { scheme };
    case 'stripe':
    case 'slack':
    case 'standard_webhooks':
      return { scheme, tolerance_seconds: (body.tolerance_seconds as number | undefined) ?? DEFAULT_TOLERANCE_SECONDS };
    case 'hmac':
      return {
        scheme,
        // Header names are case-insensitive; requests carry them in lower case.
        header: (body.header as string).toLowerCase(),
        algorithm: (body.algorithm as HmacAlgorithm | undefined) ?? 'sha256',
        encoding: (body.encoding as SignatureEncoding | undefined) ?? 'hex',
        prefix: (body.prefix as string | undefined) ?? '',
      };
  }
}
