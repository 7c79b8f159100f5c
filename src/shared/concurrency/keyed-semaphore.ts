import { AcquireAbandonedError, Semaphore } from './semaphore.js';

export interface KeyedSemaphoreOptions {
  /** Holders of one key at once. */
  capacity: number;
  /** Waiters of one key at most; the next one is refused at once. */
  maxWaiting: number;
  /** How long a waiter waits for its turn before it is refused. */
  waitMs: number;
}

interface KeyState {
  semaphore: Semaphore;
  /** Holders and waiters. */
  users: number;
}

/**
 * A Semaphore per key (an organization), so one key's holders never hold back another key's. A
 * key is kept only while it has holders or waiters, so memory follows the work under way, not
 * the keys ever seen; and a key's waiters are bounded in number and in time, so a caller who
 * keeps asking is refused instead of queueing without end.
 */
export class KeyedSemaphore<K> {
  private readonly keys = new Map<K, KeyState>();

  constructor(private readonly options: KeyedSemaphoreOptions) {}

  /** Keys with holders or waiters right now. */
  get size(): number {
    return this.keys.size;
  }

  /** Resolves with the function that gives the share back, or with undefined when the key's waiters are full or the wait ran out. */
  async tryAcquire(key: K): Promise<(() => void) | undefined> {
    const { capacity, maxWaiting, waitMs } = this.options;
    let state = this.keys.get(key);
    if (!state) {
      state = { semaphore: new Semaphore(capacity), users: 0 };
      this.keys.set(key, state);
    }
    if (state.users >= capacity + maxWaiting) return undefined;
    // Below the capacity nobody waits (waiters exist only while every share is held), so only a
    // caller who will wait pays for a timer.
    const deadline = state.users < capacity ? undefined : AbortSignal.timeout(waitMs);
    state.users += 1;
    const leave = () => {
      state.users -= 1;
      if (state.users === 0) this.keys.delete(key);
    };
    try {
      const release = await state.semaphore.acquire(1, deadline);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
        leave();
      };
    } catch (err) {
      leave();
      if (err instanceof AcquireAbandonedError) return undefined;
      throw err;
    }
  }
}
