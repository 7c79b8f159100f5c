import { performance } from 'node:perf_hooks';

/**
 * Caches are used only while the newest successful poll of cache_generation STARTED less than
 * this long ago (performance.now(), a monotonic clock).
 *
 * Why a stale entry is served at most TRUST_MS after the change committed: the change and the
 * bump of cache_generation commit together at C. A poll that starts after C reads a snapshot
 * taken after C, sees the new number and empties every cache when it answers (a look-up still
 * running then is not kept: InvalidatedCache's generation check; one that starts later reads
 * the database after C). So while a stale entry is still served, every poll that has answered
 * started before C, and the trust they give ends before C + TRUST_MS. With a poll every 200 ms
 * the change is normally refused within 200 ms plus one poll round trip, and two polls may be
 * late or lost before the caches are bypassed. Both are well under the contract's 1 s.
 */
export const TRUST_MS = 500;

/** Decides from the polls whether caches may be used, and empties them when they may be wrong. */
export class CacheTrust {
  private readonly resets = new Set<() => void>();
  private known: string | undefined;
  private trustedUntil = -Infinity;

  /** Cheap enough for every request: no I/O. */
  isTrusted(now = performance.now()): boolean {
    return now < this.trustedUntil;
  }

  /** `reset` is called (forget everything) whenever the caches may hold something stale. */
  onReset(reset: () => void): void {
    this.resets.add(reset);
  }

  /** A poll that started at `startedAt` read `generation`. */
  heard(generation: string, startedAt: number, now = performance.now()): void {
    // A changed number, or a gap in which a change could have come and gone unseen: start empty.
    if (generation !== this.known || !this.isTrusted(now)) this.reset();
    this.known = generation;
    this.trustedUntil = Math.max(this.trustedUntil, startedAt + TRUST_MS);
  }

  reset(): void {
    for (const reset of this.resets) reset();
  }
}
