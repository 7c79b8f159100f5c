import type { Role } from '../../../shared/http/roles.js';

/** Invited until the person first signs in. */
export type UserStatus = 'invited' | 'active';

/** A person of an organization and their one role. */
export interface User {
  id: number;
  organizationId: number;
  email: string;
  role: Role;
  status: UserStatus;
  createdAt: Date;
  lastSeenAt: Date | null;
}

/** Who a person is at an OpenID provider: the issuer and its `sub`, which never changes (an address may, and may be handed on). */
export interface SsoIdentity {
  issuer: string;
  subject: string;
}

/** How a session was signed in: `required` single sign-on ends the email-link ones. */
export type SignInMethod = 'email_link' | 'sso';

/** The name of the sessions' cache (by the hex SHA-256 of their id), whose keys every instance drops when a session ends. */
export const SESSIONS_CACHE = 'sessions';

/** A signed-in person's session as stored: found by the hash of its id, never the id itself. */
export interface StoredSession {
  organizationId: number;
  userId: number;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** A user as the target of an audit entry (their changes, sign-ins and sign-outs). */
export const auditTargetOf = (userId: number) => ({ type: 'user', id: String(userId) });
