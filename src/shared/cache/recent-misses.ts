import type { Generations } from './invalidated-cache.js';

/**
 * Keys a look-up found nothing for, remembered for `ttlMs` (at most `maxEntries`, the oldest
 * dropped first): the other half of an InvalidatedCache, which keeps found values only, for
 * keys a stranger can make up by the thousand (an unknown recipient at RCPT TO). Dropped with
 * every cache reset, and a key with every invalidation of it in the cache named `name` (on any
 * instance); `forget` drops a key at once on this instance, and a miss whose look-up ran while a
 * key was forgotten is not kept (it may have read the database before the change).
 */
export class RecentMisses {
  private readonly expiry = new Map<string, number>();
  private generation = 0;

  constructor(
    private readonly generations: Pick<Generations, 'isTrusted' | 'listen'>,
    name: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    generations.listen(name, { reset: () => this.clear(), drop: (key) => this.forget(key) });
  }

  /** Whether `key` was missed lately; the generation to hand back to `missed` otherwise. */
  check(key: string): { known: true } | { known: false; generation: number } {
    const expiresAt = this.expiry.get(key);
    if (expiresAt !== undefined && expiresAt > Date.now() && this.generations.isTrusted()) return { known: true };
    return { known: false, generation: this.generation };
  }

  /** A look-up that started at `generation` found nothing for `key`. */
  missed(key: string, generation: number): void {
    if (generation !== this.generation || !this.generations.isTrusted()) return;
    this.expiry.delete(key);
    if (this.expiry.size >= this.maxEntries) this.expiry.delete(this.expiry.keys().next().value!);
    this.expiry.set(key, Date.now() + this.ttlMs);
  }

  /** `key` now names something: the next look-up goes to the database. */
  forget(key: string): void {
    this.generation++;
    this.expiry.delete(key);
  }

  private clear(): void {
    this.generation++;
    this.expiry.clear();
  }
}
