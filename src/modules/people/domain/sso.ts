import type { Role } from '../../../shared/http/roles.js';

/** The roles a person signing in for the first time may get: an owner is always named by an owner. */
export const SSO_DEFAULT_ROLES = ['viewer', 'agent', 'editor', 'admin'] as const satisfies readonly Role[];
export type SsoDefaultRole = (typeof SSO_DEFAULT_ROLES)[number];
/** Enough for an organization's every brand and subsidiary; bounds the GIN index's rows per organization. */
export const MAX_SSO_EMAIL_DOMAINS = 50;
/** A lower-case host name of at least two labels (no trailing dot). */
export const EMAIL_DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An organization's single sign-on as the owner set it; the client secret as it is stored (sealed). */
export interface SsoConfiguration {
  organizationId: number;
  issuer: string;
  clientId: string;
  sealedClientSecret: string;
  emailDomains: string[];
  /** The listed domains whose DNS proved the organization may speak for them: only these route a typed address. */
  verifiedEmailDomains: string[];
  /** What the organization's TXT record must say; not a secret (it is published in DNS), but its own. */
  domainVerificationToken: string;
  defaultRole: SsoDefaultRole;
  required: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The DNS TXT record that proves an organization may speak for an email domain. Listing a
 * domain only limits whose verified email the organization's provider may sign in; sending
 * people who type an address of the domain to that provider needs this proof, or any
 * organization could list a domain it does not own and collect its people's sign-ins.
 */
export function domainVerificationRecord(domain: string, token: string): { name: string; value: string } {
  return { name: `_case-intake.${domain}`, value: `case-intake-domain-verification=${token}` };
}

/** Whether a TXT lookup's answer (each record as its strings) holds the record that proves the domain. */
export function provesDomain(records: string[][], domain: string, token: string): boolean {
  const expected = domainVerificationRecord(domain, token).value;
  // A long TXT record arrives as several strings of at most 255 characters each.
  return records.some((strings) => strings.join('') === expected);
}

/** Why a single sign-on did not sign anyone in: the audit entry's `reason`. */
export type SsoFailureReason =
  | 'not_configured'
  | 'provider_unreachable'
  | 'sign_in_expired'
  | 'state_mismatch'
  | 'provider_refused'
  | 'code_rejected'
  | 'id_token_invalid'
  | 'response_invalid'
  | 'email_missing'
  | 'email_not_verified'
  | 'email_domain_not_listed'
  /** The address is a user's who is linked to another person at this provider (the address was handed on). */
  | 'identity_mismatch';

/** A single sign-on that signs nobody in; `status` is the page's (4xx, 502 for a provider that cannot be used). */
export class SsoSignInError extends Error {
  constructor(readonly reason: SsoFailureReason, readonly status: 400 | 403 | 404 | 502, readonly organizationId?: number, readonly email?: string) {
    super(`single sign-on failed: ${reason}`);
  }
}

/** The domain of an email address, lower case; undefined for something that is not one. */
export function emailDomainOf(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return undefined;
  return email.slice(at + 1).toLowerCase();
}

/**
 * Whether `issuer` may be an organization's OpenID provider: an https URL without credentials,
 * query or fragment; http only for a loopback host when outbound requests may reach private
 * addresses (a local provider in development and tests). Answers the problem, or undefined.
 */
export function issuerProblem(issuer: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'issuer must be an absolute URL';
  }
  if (url.username || url.password || url.search || url.hash) return 'issuer must have no credentials, query or fragment';
  if (url.protocol === 'https:') return undefined;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && loopback && allowPrivate) return undefined;
  return 'issuer must be an https URL';
}
