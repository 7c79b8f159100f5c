import { type InvalidationBus, LONGEST_CACHE_LIFETIME_MS } from './invalidation-bus.js';

/**
 * A small in-memory cache whose entries every instance drops together (see InvalidationBus).
 * Only found values are cached; while the bus is not live every read goes to the loader.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /**
   * Bumped by every invalidation of this topic and every reset. A load that ran while it
   * changed may have read the database before the change committed, so its answer is not kept.
   */
  private generation = 0;

  constructor(
    private readonly bus: InvalidationBus,
    private readonly topic: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    // An invalidation Redis did not take is sent again for this long only (see InvalidationBus).
    if (ttlMs > LONGEST_CACHE_LIFETIME_MS) throw new Error(`cache lifetime above ${LONGEST_CACHE_LIFETIME_MS} ms`);
    bus.on(
      topic,
      (key) => { this.generation++; this.entries.delete(key); },
      () => { this.generation++; this.entries.clear(); },
    );
  }

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now() && this.bus.isLive()) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation && this.bus.isLive()) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
    }
    return value;
  }

  /** Call after the change is committed; throws ServiceUnavailableError when other instances could not be told. */
  invalidate(key: string): Promise<void> {
    return this.bus.publish(this.topic, key);
  }
}
