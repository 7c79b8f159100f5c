import type { Transaction } from '../database/transaction.js';
import type { CacheGeneration } from './cache-generation.js';

/** What a cache needs of CacheGeneration (a test can stand in for it). */
export type Generations = Pick<CacheGeneration, 'isTrusted' | 'listen' | 'commit'>;

/**
 * A small in-memory cache whose changed entries every instance drops (see CacheGeneration).
 * Only found values are cached; while the caches are not trusted every read goes to the loader.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /**
   * Bumped by every change, drop and reset. A load that ran while it changed may have read
   * the database before the change committed, so its answer is not kept (a load of another
   * key is read again next time: cheaper than following loads by key, and no entry is lost).
   */
  private generation = 0;

  /** `name` is what the cache_invalidations rows of this cache's changes say, on every instance. */
  constructor(
    private readonly generations: Generations,
    private readonly name: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    generations.listen(name, {
      reset: () => { this.generation++; this.entries.clear(); },
      drop: (key) => this.forget(key),
    });
  }

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now() && this.generations.isTrusted()) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation && this.generations.isTrusted()) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
    }
    return value;
  }

  /**
   * Runs `change` in a transaction that also invalidates `key`, so every instance drops it at
   * its next poll; this instance drops it at once after the commit, and after a failure too (a
   * connection lost during COMMIT leaves the outcome unknown).
   */
  async change<T>(key: string, change: (tx: Transaction) => Promise<T>): Promise<T> {
    try {
      return await this.generations.commit(this.name, key, change);
    } finally {
      this.forget(key);
    }
  }

  private forget(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }
}
