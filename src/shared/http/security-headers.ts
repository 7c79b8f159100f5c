import type { FastifyReply } from 'fastify';

/** Headers for every HTML page the service serves (the dashboard, the API docs) and their assets. */
const COMMON: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Everything from this origin, nothing inline, nothing from elsewhere. */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function setSecurityHeaders(reply: Pick<FastifyReply, 'header'>, csp: string): void {
  reply.header('content-security-policy', csp);
  for (const [name, value] of Object.entries(COMMON)) reply.header(name, value);
}
