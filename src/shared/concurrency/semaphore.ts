/** Thrown to a waiter whose signal aborted before it got its share. */
export class AcquireAbandonedError extends Error {
  constructor() {
    super('gave up waiting');
  }
}

interface Waiter {
  weight: number;
  grant: () => void;
}

/**
 * At most `capacity` units held at once (permits, bytes); the others wait in order. A waiter at
 * the head that needs more than is free holds back those behind it, so a large one is never
 * starved by a stream of small ones. A weight above the capacity waits for all of it.
 */
export class Semaphore {
  private readonly waiting: Waiter[] = [];
  private free: number;

  constructor(private readonly capacity: number) {
    this.free = capacity;
  }

  /** Resolves with the function that gives the share back; rejects if `abandoned` aborts first. */
  async acquire(weight = 1, abandoned?: AbortSignal): Promise<() => void> {
    const share = Math.min(weight, this.capacity);
    if (this.waiting.length === 0 && this.free >= share) this.free -= share;
    else await this.wait(share, abandoned);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free += share;
      this.grantWaiting();
    };
  }

  private wait(weight: number, abandoned?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        weight,
        grant: () => {
          abandoned?.removeEventListener('abort', abandon);
          resolve();
        },
      };
      const abandon = () => {
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        this.grantWaiting();
        reject(new AcquireAbandonedError());
      };
      if (abandoned?.aborted) return reject(new AcquireAbandonedError());
      abandoned?.addEventListener('abort', abandon, { once: true });
      this.waiting.push(waiter);
    });
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0 && this.free >= this.waiting[0]!.weight) {
      const next = this.waiting.shift()!;
      this.free -= next.weight;
      next.grant();
    }
  }
}
