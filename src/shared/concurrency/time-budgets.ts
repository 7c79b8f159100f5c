export interface TimeBudgetOptions {
  /** Milliseconds of work a key earns per second of the clock. */
  msPerSecond: number;
  /** The most a key saves up (a key never seen has this much): how long a burst of work may be. */
  burstMs: number;
}

interface Balance {
  ms: number;
  /** When `ms` was last brought up to date, on the budget's clock. */
  at: number;
}

/**
 * A budget of time per key (an organization): each key earns `msPerSecond` of work per second,
 * saved up to `burstMs`, and is charged what each piece of its work lasted. Work starts only
 * while the key's balance is above zero; what a piece costs is known only once it ended, so the
 * balance may fall below zero, and the key then waits until it has earned the debt back. A
 * key is kept only until its balance is full again, so memory follows the keys that spent lately.
 */
export class TimeBudgets<K> {
  private readonly balances = new Map<K, Balance>();
  /** Forgetting full keys walks every key: done when their number doubled since the last walk. */
  private forgetAt = 64;

  constructor(
    private readonly options: TimeBudgetOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Keys with less than a full balance (or not looked at since they refilled). */
  get size(): number {
    return this.balances.size;
  }

  /** How long `key` must wait before its work may start: 0 when it may start now. */
  waitMs(key: K): number {
    const balance = this.balance(key);
    return balance > 0 ? 0 : Math.max(1, Math.ceil((-balance * 1000) / this.options.msPerSecond));
  }

  /** Charges `key` for work that lasted `ms`. */
  charge(key: K, ms: number): void {
    this.balances.set(key, { ms: this.balance(key) - ms, at: this.now() });
    if (this.balances.size >= this.forgetAt) this.forgetFull();
  }

  private balance(key: K): number {
    const saved = this.balances.get(key);
    if (!saved) return this.options.burstMs;
    const ms = Math.min(this.options.burstMs, saved.ms + ((this.now() - saved.at) * this.options.msPerSecond) / 1000);
    if (ms >= this.options.burstMs) this.balances.delete(key);
    return ms;
  }

  private forgetFull(): void {
    for (const key of this.balances.keys()) this.balance(key);
    this.forgetAt = Math.max(64, this.balances.size * 2);
  }
}
