import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { Env } from '../../../shared/config/env.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { RateLimitedError, ServiceUnavailableError } from '../../../shared/errors/app-error.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { REDIS_CLIENT, type RedisConnection } from '../../../shared/redis/redis.client.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import { userActor } from '../../audit/domain/audit-entry.js';
import { emailDomainOf, type SsoConfiguration, type SsoFailureReason, SsoSignInError } from '../domain/sso.js';
import { auditTargetOf } from '../domain/user.js';
import { OpenIdProviders } from './openid-providers.js';
import { PeopleStore } from './people-store.js';
import { SessionsService } from './sessions.service.js';
import { SIGN_IN_REQUEST_WINDOW_MS, SignInRequestLimits } from './sign-in-request-limits.js';
import { SsoConfigurationsService } from './sso-configurations.service.js';

export const SSO_CALLBACK_PATH = '/auth/sso/callback';
/** A sign-in begun at the provider must come back within this, once. */
export const SSO_PENDING_MS = 10 * 60_000;

const WINDOW_SECONDS = SIGN_IN_REQUEST_WINDOW_MS / 1000;

/** What the service keeps between sending a person to the provider and their return. */
interface PendingSignIn {
  organizationId: number;
  codeVerifier: string;
  state: string;
  nonce: string;
}

/** openid-client's failures (oauth4webapi codes) by what they mean for the person; any other is the provider's (502). */
const OAUTH_FAILURES: Record<string, SsoFailureReason> = {
  OAUTH_AUTHORIZATION_RESPONSE_ERROR: 'provider_refused',
  OAUTH_RESPONSE_BODY_ERROR: 'code_rejected',
  OAUTH_JWT_CLAIM_COMPARISON_FAILED: 'id_token_invalid',
  OAUTH_JWT_TIMESTAMP_CHECK_FAILED: 'id_token_invalid',
  OAUTH_KEY_SELECTION_FAILED: 'id_token_invalid',
  OAUTH_INVALID_RESPONSE: 'id_token_invalid',
  OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED: 'response_invalid',
};

/**
 * Single sign-on with OpenID Connect (people.md, section 2): the authorization code flow with
 * PKCE (S256), state and nonce, through openid-client, which verifies the ID token's signature
 * against the provider's keys, its issuer, audience, expiry and nonce. The pending sign-in is
 * kept in Redis under a random id the browser holds in a short-lived cookie, and taken once
 * (GETDEL): a replayed callback finds nothing. A verified email of a listed domain signs in the
 * organization's user linked to the person's identity at the provider (its `sub`), else the user
 * with that address, linked then (created with the default role when there is none). An address
 * that is another linked person's signs in nobody: providers hand on addresses, never a `sub`.
 */
@Injectable()
export class SsoSignInService {
  constructor(
    private readonly settings: SsoConfigurationsService,
    private readonly providers: OpenIdProviders,
    private readonly store: PeopleStore,
    private readonly sessions: SessionsService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly limits: SignInRequestLimits,
    private readonly env: Env,
    @Inject(REDIS_CLIENT) private readonly redis: RedisConnection,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Where to send the person (the provider's authorization URL) and the id of the pending sign-in, for the cookie. */
  async start(organizationId: number, address: string | null): Promise<{ location: string; pendingId: string }> {
    const setting = await this.settings.find(organizationId);
    if (!setting) throw new SsoSignInError('not_configured', 404);
    if (address !== null && !(await this.limits.allowSsoStart(address))) throw new RateLimitedError(WINDOW_SECONDS);
    const configuration = await this.audited(address, () => this.provider(setting));
    const pending: PendingSignIn = { organizationId, codeVerifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
    const location = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: `${this.env.PUBLIC_BASE_URL}${SSO_CALLBACK_PATH}`,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    const pendingId = randomBytes(32).toString('base64url');
    await this.redisCall(() => this.redis.set(this.key(pendingId), JSON.stringify(pending), 'PX', SSO_PENDING_MS));
    return { location: location.href, pendingId };
  }

  /**
   * The person's return from the provider (`callbackUrl` as they asked for it): answers the new
   * session's id; every failure is an SsoSignInError, audited when the organization is known.
   */
  async finish(pendingId: string | undefined, callbackUrl: URL, address: string | null): Promise<string> {
    const stored = pendingId ? await this.redisCall(() => this.redis.getdel(this.key(pendingId))) : null;
    if (!stored) throw new SsoSignInError('sign_in_expired', 400);
    const pending = JSON.parse(stored) as PendingSignIn;
    return this.audited(address, async () => {
      if (callbackUrl.searchParams.get('state') !== pending.state) throw new SsoSignInError('state_mismatch', 400, pending.organizationId);
      const setting = await this.settings.find(pending.organizationId);
      if (!setting) throw new SsoSignInError('not_configured', 404, pending.organizationId);
      const { email, subject } = await this.verifiedPerson(await this.provider(setting), callbackUrl, pending, setting);
      return await this.transactions.run(async (tx) => {
        const found = await this.store.activateSsoUser(tx, setting.organizationId, { issuer: setting.issuer, subject }, email, setting.defaultRole);
        if (!found) throw new SsoSignInError('identity_mismatch', 403, setting.organizationId, email);
        const { user, created } = found;
        const by = { actor: userActor(user), address };
        if (created) await this.audit.record(tx, { organizationId: user.organizationId, by, action: 'user.created', target: auditTargetOf(user.id), summary: { email: user.email, role: user.role, via: 'sso' } });
        return this.sessions.start(tx, user, 'sso', address);
      });
    });
  }

  /**
   * Runs `work`; a failure for a known organization is audited as `session.sign_in_failed` (its
   * own transaction; never a code or a token), repeats counted in one entry an hour: anyone may cause them.
   */
  private async audited<T>(address: string | null, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof SsoSignInError && err.organizationId !== undefined) {
        const organizationId = err.organizationId;
        const actor = { type: 'user' as const, id: 'unknown', name: err.email ?? 'unknown' };
        const summary = { method: 'sso', reason: err.reason, ...(err.email ? { email: err.email } : {}) };
        await this.transactions.run((tx) => this.audit.recordRepeated(tx, { organizationId, by: { actor, address }, action: 'session.sign_in_failed', target: { type: 'sso', id: String(organizationId) }, summary }));
      }
      throw err;
    }
  }

  /** The provider's discovered configuration; one that cannot be discovered (down, or not the issuer configured) is a 502. */
  private async provider(setting: SsoConfiguration): Promise<oidc.Configuration> {
    try {
      return await this.providers.configuration(setting, this.settings.clientSecret(setting));
    } catch (err) {
      // Discovery has no ID token to be wrong: whatever failed, the provider is not usable as configured.
      this.logger.warn({ organizationId: setting.organizationId, code: codeOf(err) }, 'single sign-on discovery failed');
      throw new SsoSignInError('provider_unreachable', 502, setting.organizationId);
    }
  }

  /** The code exchanged for tokens (state, nonce and PKCE checked, the ID token verified), then who the ID token vouches for: its `sub` and email. */
  private async verifiedPerson(configuration: oidc.Configuration, callbackUrl: URL, pending: PendingSignIn, setting: SsoConfiguration): Promise<{ email: string; subject: string }> {
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      throw this.failureOf(err, setting.organizationId);
    }
    const email = typeof claims?.email === 'string' ? claims.email : undefined;
    const domain = email && emailDomainOf(email);
    // An address no mailbox can have (RFC 5321 caps it at 254) is none: it would only be stored, in the user and the audit log.
    if (!email || email.length > 254 || !domain) throw new SsoSignInError('email_missing', 403, setting.organizationId);
    if (claims!.email_verified !== true) throw new SsoSignInError('email_not_verified', 403, setting.organizationId, email);
    if (!setting.emailDomains.includes(domain)) throw new SsoSignInError('email_domain_not_listed', 403, setting.organizationId, email);
    return { email, subject: claims!.sub };
  }

  private failureOf(err: unknown, organizationId: number): SsoSignInError {
    if (err instanceof SsoSignInError) return err;
    const code = codeOf(err);
    const reason = code === undefined ? undefined : OAUTH_FAILURES[code];
    this.logger.info({ organizationId, code, reason: reason ?? 'provider_unreachable' }, 'single sign-on failed');
    return reason ? new SsoSignInError(reason, reason === 'response_invalid' ? 502 : 400, organizationId) : new SsoSignInError('provider_unreachable', 502, organizationId);
  }

  private key(pendingId: string): string {
    return `${this.env.REDIS_PREFIX}:sso-sign-in:${pendingId}`;
  }

  /** Without Redis no sign-in can be begun or finished: a 503 page, not a 500. */
  private async redisCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch {
      throw new ServiceUnavailableError();
    }
  }
}

/** openid-client's error code (`OAUTH_...`), the only part of a failure that is logged: messages may quote the provider's answer. */
function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
