import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie of a signed-in person: only the session's random id, never anything it proves. */
export const SESSION_COOKIE = 'cis_session';
/**
 * Its name where the service is served over HTTPS at its root: a browser keeps a `__Host-` cookie
 * only when it is `Secure`, for `Path=/` and with no `Domain`, so no neighbouring host (another
 * subdomain of the same site) can set or replace it, to sign a person in to an account of its choosing.
 */
const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** The header the dashboard sends with every state-changing request of a session (its CSRF token). */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Whether a form post that signs a browser in may have come from the service's own page: its
 * `Origin` is the service's (`PUBLIC_BASE_URL`'s), or absent (a browser that sends none). Another
 * site's form, or a page that hides its origin (`null`), would sign the browser in to someone
 * else's account, or send it on to an identity provider it did not ask for.
 */
export function postedFromOwnPage(request: FastifyRequest, publicBaseUrl: string): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === new URL(publicBaseUrl).origin;
}

/** The session cookie's name for the service at `publicBaseUrl`: `__Host-cis_session` over HTTPS at the root, `cis_session` otherwise. */
export function sessionCookieName(publicBaseUrl: string): string {
  return hostCookieName(publicBaseUrl, SESSION_COOKIE);
}

/**
 * A cookie that signs a browser in, named for the service at `publicBaseUrl`: `__Host-` prefixed
 * over HTTPS at the root (it must then be set with `Path=/`), so that no neighbouring host can
 * set it; `name` as it is otherwise.
 */
export function hostCookieName(publicBaseUrl: string, name: string): string {
  const url = new URL(publicBaseUrl);
  return url.protocol === 'https:' && url.pathname === '/' ? `__Host-${name}` : name;
}

/** The session id the request's cookie holds (only the cookie of the name the service uses), undefined without one. */
export function sessionCookie(request: FastifyRequest, publicBaseUrl: string): string | undefined {
  return requestCookie(request, sessionCookieName(publicBaseUrl));
}

/** Whichever session cookie the request holds: to count its requests by, never to sign anyone in. */
export function anySessionCookie(request: FastifyRequest): string | undefined {
  return requestCookie(request, HOST_SESSION_COOKIE) ?? requestCookie(request, SESSION_COOKIE);
}

/** The value of the request's cookie `name`, undefined without one (or an empty one). */
export function requestCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/**
 * `HttpOnly` (no script reads it), `SameSite=Lax` (no cross-site POST carries it) and `Secure`
 * unless the service is served on localhost over plain HTTP; `maxAgeSeconds` 0 removes it.
 */
export function setSessionCookie(reply: FastifyReply, publicBaseUrl: string, value: string, maxAgeSeconds: number): void {
  setCookie(reply, publicBaseUrl, { name: sessionCookieName(publicBaseUrl), value, path: '/', maxAgeSeconds });
}

/** A cookie of the service's own, with the session cookie's attributes; each call adds a `Set-Cookie` header. */
export function setCookie(reply: FastifyReply, publicBaseUrl: string, cookie: { name: string; value: string; path: string; maxAgeSeconds: number }): void {
  const url = new URL(publicBaseUrl);
  const local = url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  const attributes = [`${cookie.name}=${cookie.value}`, `Path=${cookie.path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${cookie.maxAgeSeconds}`, ...(local ? [] : ['Secure'])];
  reply.header('set-cookie', attributes.join('; '));
}
