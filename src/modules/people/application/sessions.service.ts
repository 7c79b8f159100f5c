import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CacheGeneration } from '../../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../../shared/cache/invalidated-cache.js';
import { Env } from '../../../shared/config/env.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import { ForbiddenError, UnauthorizedError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import { userActor } from '../../audit/domain/audit-entry.js';
import type { UserPrincipal } from '../../tokens/domain/principal.js';
import { secretsEqual } from '../../tokens/domain/token-secrets.js';
import { auditTargetOf, SESSIONS_CACHE, type SignInMethod, type StoredSession, type User } from '../domain/user.js';
import { PeopleStore } from './people-store.js';
import { SignInLinksService } from './sign-in-links.service.js';
import { SignInRequestLimits } from './sign-in-request-limits.js';

/** `last_seen_at` (the idle timeout's clock) is written at most once a minute per session. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A session id as `start` makes it (32 random bytes, base64url): any other cookie is no session, and costs no query. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** What a state-changing request says about where it comes from, for the CSRF check. */
export interface RequestOrigin {
  method: string;
  /** The `Origin` header, if sent. */
  origin: string | undefined;
  /** The CSRF header, if sent. */
  csrfToken: string | undefined;
}

/**
 * Server-side sessions of signed-in people. The cookie holds a random id; the table keeps its
 * SHA-256. Sessions and users are cached per key (a session's hash, a user's id) and every
 * instance drops a changed key at its next poll of cache_generation, so a deleted user or a
 * changed role acts on the next request everywhere.
 */
@Injectable()
export class SessionsService {
  private readonly sessions: InvalidatedCache<StoredSession>;
  private readonly users: InvalidatedCache<User>;
  private readonly lastSeenWritten = new Map<string, number>();

  constructor(
    private readonly store: PeopleStore,
    private readonly env: Env,
    private readonly links: SignInLinksService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly limits: SignInRequestLimits,
    generations: CacheGeneration,
  ) {
    this.sessions = new InvalidatedCache(generations, SESSIONS_CACHE, 60_000);
    this.users = new InvalidatedCache(generations, 'users', 60_000);
  }

  /**
   * Signs in with a sign-in link's token, from `address`: a new session for the link's user,
   * answering its id (for the cookie only); undefined for an unknown, used or expired link, and
   * the organization when it requires single sign-on. The sign-in and a failed one with a link
   * that was issued are audited (never with the token); the failures of one link, counted in an
   * entry an hour (anyone holding it may repeat them).
   */
  async signIn(token: string, address: string | null): Promise<{ sessionId: string } | { ssoRequiredBy: number } | undefined> {
    return this.transactions.run(async (tx) => {
      const found = await this.links.redeem(tx, token);
      if (!found) return undefined;
      if ('spent' in found) {
        const { user, reason } = found.spent;
        await this.audit.recordRepeated(tx, { organizationId: user.organizationId, by: { actor: userActor(user), address }, action: 'session.sign_in_failed', target: auditTargetOf(user.id), summary: { method: 'email_link', reason } });
        return reason === 'sso_required' ? { ssoRequiredBy: user.organizationId } : undefined;
      }
      return { sessionId: await this.start(tx, found.user, 'email_link', address) };
    });
  }

  /**
   * A new session for `user`, signed in by `method` from `address`, audited; answers its id (for
   * the cookie only). The address's network becomes one of the user's known ones: a link asked
   * for from there is mailed at once.
   */
  async start(tx: Transaction, user: User, method: SignInMethod, address: string | null): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.store.createSession(tx, user, sha256(id), new Date(Date.now() + this.env.SESSION_MAX_AGE_MS), method);
    await this.audit.record(tx, { organizationId: user.organizationId, by: { actor: userActor(user), address }, action: 'session.signed_in', target: auditTargetOf(user.id), summary: { method } });
    if (address !== null) await this.limits.rememberNetwork(user, address);
    return id;
  }

  /**
   * The person a session cookie stands for: 401 for no, an unknown, an idle or an expired
   * session, or a deleted user; 403 for a state-changing request that fails the CSRF check.
   */
  async authenticate(id: string | undefined, request: RequestOrigin): Promise<UserPrincipal> {
    if (!id || !SESSION_ID.test(id)) throw new UnauthorizedError();
    const hash = sha256(id);
    const key = hash.toString('hex');
    const session = await this.sessions.get(key, () => this.store.findSession(hash));
    const now = Date.now();
    if (!session || session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + this.env.SESSION_IDLE_TIMEOUT_MS <= now) {
      throw new UnauthorizedError();
    }
    const user = await this.user(session.organizationId, session.userId);
    if (!user) throw new UnauthorizedError();
    this.checkOrigin(request, id);
    this.recordUse(key, hash, now);
    return { kind: 'user', organizationId: user.organizationId, userId: user.id, name: user.email, role: user.role, sessionKey: key };
  }

  /** The token the dashboard sends in the CSRF header: derived from the session id, so nothing more is stored. */
  csrfToken(sessionId: string): string {
    return sha256(`csrf:${sessionId}`).toString('base64url');
  }

  /** Ends the caller's session (signing out from `address`). */
  async end(caller: UserPrincipal, address: string | null): Promise<void> {
    await this.sessions.change(caller.sessionKey, async (tx) => {
      await this.store.deleteSession(tx, Buffer.from(caller.sessionKey, 'hex'));
      const by = { actor: userActor({ id: caller.userId, email: caller.name }), address };
      await this.audit.record(tx, { organizationId: caller.organizationId, by, action: 'session.signed_out', target: auditTargetOf(caller.userId), summary: {} });
    });
  }

  /** The user as the sessions see it (cached; dropped everywhere on a change through `users`). */
  private async user(organizationId: number, id: number): Promise<User | undefined> {
    return this.users.get(String(id), () => this.store.findUser(organizationId, id));
  }

  /** Runs a change of user `id` so that every instance sees it on the user's next request. */
  changeUser<T>(id: number, change: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.users.change(String(id), change);
  }

  /**
   * A state-changing request of a session is accepted from the service's own origin, or with
   * no Origin (or `null`, which a page without a referrer or a sandboxed frame sends) but the
   * session's CSRF token; anything else may be another site's form.
   */
  private checkOrigin(request: RequestOrigin, sessionId: string): void {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.origin !== undefined && request.origin !== 'null') {
      if (request.origin === new URL(this.env.PUBLIC_BASE_URL!).origin) return;
    } else if (request.csrfToken !== undefined && secretsEqual(request.csrfToken, this.csrfToken(sessionId))) {
      return;
    }
    throw new ForbiddenError('cross-site request refused: send it from the dashboard');
  }

  private recordUse(key: string, hash: Buffer, now: number): void {
    if (now - (this.lastSeenWritten.get(key) ?? 0) < LAST_SEEN_RESOLUTION_MS) return;
    this.lastSeenWritten.set(key, now);
    if (this.lastSeenWritten.size > 10_000) this.lastSeenWritten.delete(this.lastSeenWritten.keys().next().value!);
    this.store.touchSession(hash).catch(() => this.lastSeenWritten.delete(key));
  }
}
