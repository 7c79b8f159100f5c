import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import { clientAddressGroup } from '../../../shared/net/ip-address.js';
import { REDIS_CLIENT, type RedisConnection } from '../../../shared/redis/redis.client.js';

export const SIGN_IN_REQUEST_WINDOW_MS = 15 * 60_000;
/**
 * Links one client network (an IPv6 /64 is one) may ask for one address per window: a person
 * retries a few times, a flood stops here. Counted per client network too, so a stranger
 * elsewhere using up the window cannot keep the person from signing in.
 */
const PER_ADDRESS_AND_CLIENT = 5;
/**
 * Links one address may be sent per window from all networks together: what bounds one inbox
 * against a stranger with many networks (and how many of the organization's 50 one known address
 * can use up). Counted only for requests its network's window let through, so one network's flood
 * uses at most 5 of them.
 */
const PER_ADDRESS = 15;
/** Links mailed to one organization's people per window, whatever addresses were asked for. */
const PER_ORGANIZATION = 50;
/**
 * Single sign-ons begun from one client address (an IPv6 /64 is one) per window: each keeps its
 * pending state in Redis for 10 minutes, so a flood must not fill Redis; a person retries a few times.
 */
const SSO_STARTS_PER_CLIENT = 30;

/**
 * Counts sign-in link requests and single sign-ons begun in Redis, so the limits hold across instances (a fixed window per
 * key, like the HTTP rate limits). While Redis is unavailable nobody is limited: signing in does
 * not stop with it.
 */
@Injectable()
export class SignInRequestLimits {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisConnection, private readonly env: Env) {}

  async allowAddress(email: string, clientAddress: string): Promise<boolean> {
    const address = sha256(email.toLowerCase()).toString('base64url');
    return (await this.allow(`address:${address}:${clientAddressGroup(clientAddress)}`, PER_ADDRESS_AND_CLIENT)) && this.allow(`address:${address}`, PER_ADDRESS);
  }

  allowOrganization(organizationId: number): Promise<boolean> {
    return this.allow(`organization:${organizationId}`, PER_ORGANIZATION);
  }

  allowSsoStart(clientAddress: string): Promise<boolean> {
    return this.allow(`sso:${clientAddressGroup(clientAddress)}`, SSO_STARTS_PER_CLIENT);
  }

  private async allow(key: string, max: number): Promise<boolean> {
    const name = `${this.env.REDIS_PREFIX}:sign-in-requests:${key}`;
    try {
      const answers = (await this.redis.multi().set(name, '0', 'PX', SIGN_IN_REQUEST_WINDOW_MS, 'NX').incr(name).exec()) as [unknown, unknown][];
      return Number(answers[1]![1]) <= max;
    } catch {
      return true;
    }
  }
}
