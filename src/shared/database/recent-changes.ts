import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Env } from '../config/env.js';
import { REDIS_CLIENT, type RedisConnection } from '../redis/redis.client.js';

/** Past DATABASE_READ_MAX_LAG_MS, for the time a marker takes to be set and a read to start. */
const MARGIN_MS = 1_000;
/** Organizations remembered before those whose markers are gone are forgotten. */
const FORGET_EXPIRED_PAST = 10_000;

/**
 * Which organizations changed something lately, for every instance: a marker per organization in
 * Redis that lives DATABASE_READ_MAX_LAG_MS (and a margin) after its last change. While it lives,
 * the organization's reads wait for the replica to replay the primary's position or go to the
 * primary (ReplicaReads), so whoever changed something sees it on the next request, whichever
 * instance serves it. Past it, a replica in use has replayed the change anyway.
 *
 * An instance sets the marker again only when the one it set is half gone: an organization that
 * writes all the time costs Redis a command every few seconds, not one per request.
 */
@Injectable()
export class RecentChanges {
  private readonly lifetimeMs: number;
  /** Per organization: until when the marker this instance set lives, and the SET that sets it. */
  private readonly marked = new Map<number, { until: number; set: Promise<void> }>();

  constructor(
    private readonly env: Env,
    @Inject(REDIS_CLIENT) private readonly redis: RedisConnection,
  ) {
    this.lifetimeMs = env.DATABASE_READ_MAX_LAG_MS + MARGIN_MS;
  }

  /** `organizationId` changed something (committed): answered once every instance can know it. */
  record(organizationId: number): Promise<void> {
    const now = performance.now();
    const known = this.marked.get(organizationId);
    if (known && known.until - now > this.lifetimeMs / 2) return known.set;
    const set = this.redis.set(this.key(organizationId), '1', 'PX', this.lifetimeMs).then(
      () => undefined,
      // Without the marker other instances cannot know: this one still does, for as long.
      () => undefined,
    );
    if (this.marked.size >= FORGET_EXPIRED_PAST) for (const [id, { until }] of this.marked) if (until <= now) this.marked.delete(id);
    this.marked.set(organizationId, { until: now + this.lifetimeMs, set });
    return set;
  }

  /** Whether `organizationId` may have changed something the replica has not replayed; when Redis cannot say, it may. */
  async changedLately(organizationId: number): Promise<boolean> {
    const known = this.marked.get(organizationId);
    if (known) {
      if (known.until > performance.now()) return true;
      this.marked.delete(organizationId);
    }
    return this.redis.exists(this.key(organizationId)).then(
      (found) => found === 1,
      () => true,
    );
  }

  private key(organizationId: number): string {
    return `${this.env.REDIS_PREFIX}:changed-lately:${organizationId}`;
  }
}
