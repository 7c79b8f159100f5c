import type { components } from './api-schema.generated.ts';
import { REQUIRED_ROLES } from './required-roles.generated.ts';

/**
 * Who is signed in. A person signs in by email link or single sign-on: the service keeps the
 * session behind an HttpOnly cookie the dashboard never sees, and answers who it is (GET /me).
 * The "advanced" path is a pasted admin token, kept in sessionStorage (gone when the tab closes,
 * never in localStorage or a cookie) and sent by the API client as a bearer token.
 */
const TOKEN_KEY = 'case-intake.admin-token';

export type Role = components['schemas']['Me']['role'];
/** Weakest first, as the service orders them (src/shared/http/roles.ts): each may do what those before it may. */
export const ROLES = ['viewer', 'agent', 'editor', 'admin', 'owner'] as const satisfies readonly Role[];

export type Session =
  /** On load, while the service is asked whether the cookie holds a session. */
  | { kind: 'checking' }
  /** `notice`: why, shown on the sign-in page; `hadToken`: the session that ended was an admin token's (its form is shown open). */
  | { kind: 'signed-out'; notice: string | null; hadToken: boolean }
  | { kind: 'person'; email: string; userId: number; role: Role; csrfToken: string; organizationId: number }
  /** An admin token acts with the admin role. */
  | { kind: 'token'; token: string; role: 'admin' };

let session: Session = { kind: 'checking' };
const listeners = new Set<() => void>();

function become(next: Session): void {
  session = next;
  for (const listener of listeners) listener();
}

export function currentSession(): Session {
  return session;
}

/** The token kept in this tab by an earlier token sign-in, if any. */
export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signedInWithToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  become({ kind: 'token', token, role: 'admin' });
}

export function signedInAsPerson(email: string, userId: number, role: Role, csrfToken: string, organizationId: number): void {
  become({ kind: 'person', email, userId, role, csrfToken, organizationId });
}

export function signedOut(notice: string | null = null): void {
  sessionStorage.removeItem(TOKEN_KEY);
  become({ kind: 'signed-out', notice, hadToken: session.kind === 'token' });
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An operation of the admin API, by its OpenAPI operation id. */
export type Operation = keyof typeof REQUIRED_ROLES;

/**
 * Whether the signed-in caller's role may call `operation`: the one test of what the dashboard
 * shows, against the roles the service itself requires (the generated REQUIRED_ROLES), so that
 * a button or page a role may not use is not rendered at all.
 */
export function can(operation: Operation): boolean {
  return roleAtLeast(REQUIRED_ROLES[operation]);
}

/**
 * Whether the signed-in caller's role is `role` or a stronger one: only for a rule within an
 * operation (who may share a saved view), where `can` has no operation to ask about.
 */
export function roleAtLeast(role: Role): boolean {
  if (session.kind !== 'person' && session.kind !== 'token') return false;
  return ROLES.indexOf(session.role) >= ROLES.indexOf(role);
}
