import { performance } from 'node:perf_hooks';

/**
 * Caches are used only while the newest successful poll of cache_generation STARTED less than
 * this long ago (performance.now(), a monotonic clock).
 *
 * Why a stale entry is served at most TRUST_MS after the change committed: the change, the
 * bump of cache_generation and its row in cache_invalidations commit together at C. A poll that
 * starts after C reads a snapshot taken after C, sees the new number and drops the changed key
 * (or empties every cache when a row is missing) when it answers (a look-up still
 * running then is not kept: InvalidatedCache's generation check; one that starts later reads
 * the database after C). So while a stale entry is still served, every poll that has answered
 * started before C, and the trust they give ends before C + TRUST_MS. With a poll every 200 ms
 * the change is normally refused within 200 ms plus one poll round trip, and two polls may be
 * late or lost before the caches are bypassed. Both are well under the contract's 1 s.
 */
export const TRUST_MS = 500;

/** One row of cache_invalidations: a change invalidated `key` of the cache named `cache`. */
export interface Invalidation {
  cache: string;
  key: string;
}

/** What a cache does when a poll says it may hold something stale. */
export interface CacheListener {
  /** Forget everything. */
  reset(): void;
  /** Forget `key`. */
  drop(key: string): void;
}

/** Decides from the polls whether caches may be used, and what they must forget. */
export class CacheTrust {
  private readonly caches: { name: string; listener: CacheListener }[] = [];
  private known: string | undefined;
  private trustedUntil = -Infinity;

  /** Cheap enough for every request: no I/O. */
  isTrusted(now = performance.now()): boolean {
    return now < this.trustedUntil;
  }

  /** `listener` hears the invalidations of the cache named `name`, and every reset. */
  listen(name: string, listener: CacheListener): void {
    this.caches.push({ name, listener });
  }

  /** The generation the newest poll read, while the caches are trusted: a poll needs only the invalidations after it. */
  since(now = performance.now()): string | null {
    return this.isTrusted(now) ? this.known ?? null : null;
  }

  /** A poll that started at `startedAt` read `generation` and the invalidations after the one it asked `since`. */
  heard(generation: string, invalidations: readonly Invalidation[], startedAt: number, now = performance.now()): void {
    // A gap in which a change could have come and gone unseen, or a number whose rows are
    // missing (pruned, or bumped without one): start empty.
    const complete = this.known !== undefined && BigInt(generation) - BigInt(this.known) === BigInt(invalidations.length);
    if (!complete || !this.isTrusted(now)) this.reset();
    else for (const { cache, key } of invalidations) this.drop(cache, key);
    this.known = generation;
    this.trustedUntil = Math.max(this.trustedUntil, startedAt + TRUST_MS);
  }

  reset(): void {
    for (const { listener } of this.caches) listener.reset();
  }

  private drop(cache: string, key: string): void {
    for (const { name, listener } of this.caches) if (name === cache) listener.drop(key);
  }
}
