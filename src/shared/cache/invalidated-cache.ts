import type { InvalidationBus } from './invalidation-bus.js';

/**
 * A small in-memory cache whose entries every instance drops together (see InvalidationBus).
 * Only found values are cached; while the bus is not live every read goes to the loader.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly bus: InvalidationBus,
    private readonly topic: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    bus.on(topic, (key) => this.entries.delete(key), () => this.entries.clear());
  }

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now() && this.bus.isLive()) return hit.value;
    const value = await load();
    if (value !== undefined && this.bus.isLive()) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
    }
    return value;
  }

  invalidate(key: string): Promise<void> {
    return this.bus.publish(this.topic, key);
  }
}
