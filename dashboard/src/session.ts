/**
 * The signed-in admin token. Kept in sessionStorage (gone when the tab closes, never in
 * localStorage or a cookie) and sent by the API client as a bearer token.
 */
const TOKEN_KEY = 'case-intake.admin-token';

export interface Session {
  token: string | null;
  /** Why the user was signed out, shown on the sign-in page. */
  notice: string | null;
}

let notice: string | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function currentSession(): Session {
  return { token: sessionStorage.getItem(TOKEN_KEY), notice };
}

export function signIn(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  notice = null;
  emit();
}

export function signOut(reason: string | null = null): void {
  sessionStorage.removeItem(TOKEN_KEY);
  notice = reason;
  emit();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
