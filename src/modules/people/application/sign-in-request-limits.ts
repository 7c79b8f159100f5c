import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { Env } from '../../../shared/config/env.js';
import { clientAddressGroup } from '../../../shared/net/ip-address.js';
import { countInWindow } from '../../../shared/redis/fixed-window.js';
import { REDIS_CLIENT, type RedisConnection } from '../../../shared/redis/redis.client.js';
import type { User } from '../domain/user.js';

export const SIGN_IN_REQUEST_WINDOW_MS = 15 * 60_000;
/**
 * Links one person may be sent per window for requests from networks that signed them in
 * before: a person retries a few times; someone sharing their network cannot flood them. Spent
 * only by such requests, so a stranger elsewhere never uses it up.
 */
const KNOWN_NETWORK_LINKS = 5;
/** Networks (an IPv6 /64, an IPv4 address) remembered per person: the most recent sign-ins', each for 90 days. */
const KNOWN_NETWORKS = 10;
const KNOWN_NETWORK_MEMORY_MS = 90 * 24 * 3_600_000;
/**
 * A request from any other network mails a link only when the person's backoff allows: the
 * first at once, each next one after twice the wait of the one before (1 min, 2, 4 ... 60 min),
 * back to no wait after an hour with none. What bounds one inbox against a stranger with many
 * networks: 7 links in the first hour, then one an hour.
 */
const FIRST_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 3_600_000;
/**
 * Links mailed per window to one organization's people for requests from networks unknown to
 * them. A stranger needs this many addresses of its people, each past its backoff, to reach it,
 * and a person on a known network is mailed all the same.
 */
const UNKNOWN_NETWORK_LINKS_PER_ORGANIZATION = 50;
/**
 * Single sign-ons begun from one client network (an IPv6 /48: a site's allocation, from which
 * one client may pick /64s at will) per window: each keeps its pending state in Redis for 10
 * minutes, so a flood must not fill Redis; a person retries a few times.
 */
const SSO_STARTS_PER_CLIENT = 30;
const SSO_CLIENT_IPV6_BITS = 48;
/** The window of the overall ceiling of single sign-ons begun: as long as a pending one is kept. */
export const SSO_CEILING_WINDOW_MS = 10 * 60_000;

const INVITATION_WINDOW_MS = 24 * 3_600_000;

/** Why a request for a link mails nothing (logged, with the user's id only). */
export type HeldBack = 'known_network_limit' | 'backoff' | 'organization_limit';

/**
 * Counts sign-in link requests, single sign-ons begun and invitations sent in Redis, so the limits hold across
 * instances (a fixed window per key, like the HTTP rate limits), and remembers the networks each
 * person signed in from, as keyed hashes (no address is kept). While Redis is unavailable nobody
 * is limited: signing in does not stop with it.
 */
@Injectable()
export class SignInRequestLimits {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisConnection, private readonly env: Env) {}

  /** Whether a link may be mailed to `user` for a request from `clientAddress`; otherwise why not. */
  async allowLink(user: User, clientAddress: string): Promise<HeldBack | undefined> {
    const person = `${user.organizationId}:${user.id}`;
    if (await this.known(person, clientAddress)) return (await this.allow(`known:${person}`, KNOWN_NETWORK_LINKS)) ? undefined : 'known_network_limit';
    if (!(await this.backoffAllows(person))) return 'backoff';
    return (await this.allow(`organization:${user.organizationId}`, UNKNOWN_NETWORK_LINKS_PER_ORGANIZATION)) ? undefined : 'organization_limit';
  }

  /** Notes that `user` signed in from `clientAddress`: its network is known to them from now on. */
  async rememberNetwork(user: Pick<User, 'id' | 'organizationId'>, clientAddress: string): Promise<void> {
    const name = this.name(`networks:${user.organizationId}:${user.id}`);
    try {
      await this.redis.multi()
        .zadd(name, Date.now(), this.networkOf(clientAddress))
        .zremrangebyrank(name, 0, -KNOWN_NETWORKS - 1)
        .pexpire(name, KNOWN_NETWORK_MEMORY_MS)
        .exec();
    } catch {
      // Not remembered: the next request from there waits for the backoff, as from anywhere new.
    }
  }

  async allowSsoStart(clientAddress: string): Promise<boolean> {
    return (await this.allow(`sso:${clientAddressGroup(clientAddress, SSO_CLIENT_IPV6_BITS)}`, SSO_STARTS_PER_CLIENT))
      && this.allow('sso-all', this.env.SSO_PENDING_CEILING, SSO_CEILING_WINDOW_MS);
  }

  /** Counts an invitation of the organization's; when the day's are spent, the seconds until the window ends. */
  async invitationRefused(organizationId: number): Promise<number | undefined> {
    try {
      const { count, msLeft } = await countInWindow(this.redis, this.name(`invitations:${organizationId}`), INVITATION_WINDOW_MS);
      return count <= this.env.MAX_INVITATIONS_PER_DAY ? undefined : Math.max(1, Math.ceil(msLeft / 1000));
    } catch {
      return undefined;
    }
  }

  private async known(person: string, clientAddress: string): Promise<boolean> {
    try {
      return (await this.redis.zscore(this.name(`networks:${person}`), this.networkOf(clientAddress))) !== null;
    } catch {
      return true;
    }
  }

  /** Takes the person's backoff gate if it is open, closing it for twice as long as the last time. */
  private async backoffAllows(person: string): Promise<boolean> {
    const steps = this.name(`backoff-steps:${person}`);
    try {
      const step = Number(await this.redis.get(steps));
      const wait = Math.min(FIRST_BACKOFF_MS * 2 ** step, MAX_BACKOFF_MS);
      if ((await this.redis.set(this.name(`backoff:${person}`), '1', 'PX', wait, 'NX')) !== 'OK') return false;
      await this.redis.multi().incr(steps).pexpire(steps, wait + MAX_BACKOFF_MS).exec();
      return true;
    } catch {
      return true;
    }
  }

  /** The client's network as a keyed hash: what a reader of Redis cannot turn back into an address. */
  private networkOf(clientAddress: string): string {
    return createHmac('sha256', this.env.TOKEN_ENCRYPTION_KEY).update(`sign-in-network:${clientAddressGroup(clientAddress)}`).digest('base64url').slice(0, 22);
  }

  private async allow(key: string, max: number, windowMs = SIGN_IN_REQUEST_WINDOW_MS): Promise<boolean> {
    try {
      return (await countInWindow(this.redis, this.name(key), windowMs)).count <= max;
    } catch {
      return true;
    }
  }

  private name(key: string): string {
    return `${this.env.REDIS_PREFIX}:sign-in-requests:${key}`;
  }
}
