/** What a counter answers: the requests counted in the key's window so far, this one included, and the window's remaining milliseconds. */
export interface Count {
  current: number;
  ttl: number;
}

/**
 * Adds `n` (0: none, only reading) to the shared count of `key` and answers it with the
 * milliseconds left in the key's window; a key the store does not hold starts a window of
 * `windowMs` (so the window starts at a caller's first request, wherever it is counted).
 */
export type Settle = (key: string, n: number, windowMs: number) => Promise<Count>;

const SETTLE_PASSES = 2;

interface Counter {
  /** When the key's window ends, on this process's clock. */
  ends: number;
  /** The shared count as last read; it includes what this process had sent then. */
  known: number;
  /** Counted here and not sent yet. */
  unsent: number;
  /** Counted here and sent by a settle whose answer has not come back: in neither `known` nor `unsent` until it does. */
  sending: number;
  /** Settle passes the key still takes part in: two after its last request here, so the pass after the one that sent it reads what the others sent meanwhile. */
  passes: number;
}

export interface WindowCounterOptions {
  windowMs: number;
  /** How often counts are settled with the shared store. */
  settleMs: number;
  /** Keys counted here at most; a key past them is settled on each request. */
  maxKeys: number;
  now?: () => number;
}

/**
 * Request counters in fixed windows shared between processes through a store, without a round
 * trip per request. A window starts at the key's first request (the store keeps its end).
 * A key's first request in a window is settled at once, which tells this process what the
 * others counted; later ones are counted here, answered from what was last read plus what was
 * counted here since, and settled every `settleMs` in one pass over the keys counted in the
 * last two passes. An answer is therefore never above the true shared count: no request is refused before
 * its limit. It can be below it by what other processes counted since this one last settled,
 * so across N processes a limit of L lets in at most N x L in the worst case (each process
 * stops at L by its own count), and about L plus one settle interval of the others' requests
 * in practice. While the store fails, a key that was never settled is not counted (the caller
 * lets the request in), and one that was is counted here alone.
 */
export class WindowCounters {
  private readonly counters = new Map<string, Counter>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** No counter's window ends before this: while the map is full, a new key scans it only once one may have. */
  private earliestEnd = Infinity;
  private settling: Promise<void> | undefined;

  constructor(private readonly settle: Settle, private readonly options: WindowCounterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Counts a request under `key`. */
  async increment(key: string): Promise<Count> {
    return this.countHere(key) ?? this.settleFirst(key);
  }

  /**
   * Counts a request under `key` when its window is known here (every request but a key's first
   * in a window), without a promise; undefined, counting nothing, when `increment` must settle it.
   */
  countHere(key: string): Count | undefined {
    const now = this.now();
    const counter = this.counters.get(key);
    if (!counter || now >= counter.ends) return undefined;
    counter.unsent += 1;
    counter.passes = SETTLE_PASSES;
    this.scheduleSettle();
    return { current: counter.known + counter.sending + counter.unsent, ttl: counter.ends - now };
  }

  private async settleFirst(key: string): Promise<Count> {
    const now = this.now();
    const shared = await this.settle(key, 1, this.options.windowMs);
    // Another first request of the key settled while this one waited, in the same window: what
    // was counted on its counter since stays, and this settle may have read a larger shared
    // count. One that reached the store after that window ended started the next one instead.
    const settledAt = this.now();
    const settled = this.counters.get(key);
    if (settled && settledAt < settled.ends && Math.abs(settledAt + shared.ttl - settled.ends) < this.options.windowMs / 2) {
      settled.known = Math.max(settled.known, shared.current);
      return { current: settled.known + settled.sending + settled.unsent, ttl: settled.ends - settledAt };
    }
    if (this.roomFor(key, now)) {
      this.counters.set(key, { ends: now + shared.ttl, known: shared.current, unsent: 0, sending: 0, passes: 0 });
      this.earliestEnd = Math.min(this.earliestEnd, now + shared.ttl);
    }
    return shared;
  }

  /** Settles what is left and stops the timer. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.settling;
    await this.settleAll();
  }

  private roomFor(key: string, now: number): boolean {
    if (this.counters.size < this.options.maxKeys || this.counters.has(key)) return true;
    // Full of live windows: a stranger spraying new keys must not make every request scan them all.
    if (now < this.earliestEnd) return false;
    this.earliestEnd = Infinity;
    for (const [k, c] of this.counters) {
      if (c.ends <= now) this.counters.delete(k);
      else this.earliestEnd = Math.min(this.earliestEnd, c.ends);
    }
    return this.counters.size < this.options.maxKeys;
  }

  private scheduleSettle(): void {
    if (this.timer || this.settling) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.settling = this.settleAll().finally(() => {
        this.settling = undefined;
        for (const counter of this.counters.values()) {
          if (counter.passes > 0) return this.scheduleSettle();
        }
      });
    }, this.options.settleMs);
    this.timer.unref();
  }

  /** Sends what each key counted here and reads back the shared counts; forgets keys whose window ended (and what they counted). */
  private async settleAll(): Promise<void> {
    const now = this.now();
    const passes: Promise<void>[] = [];
    for (const [key, counter] of this.counters) {
      if (counter.ends <= now) {
        this.counters.delete(key);
        continue;
      }
      if (counter.passes === 0) continue;
      const sent = counter.unsent;
      counter.unsent = 0;
      counter.sending += sent;
      counter.passes -= 1;
      passes.push(
        this.settle(key, sent, this.options.windowMs).then(
          (shared) => {
            counter.sending -= sent;
            counter.known = shared.current;
            counter.ends = this.now() + shared.ttl;
          },
          () => {
            counter.sending -= sent;
            counter.unsent += sent;
            counter.passes = SETTLE_PASSES;
          },
        ),
      );
    }
    await Promise.all(passes);
  }
}
