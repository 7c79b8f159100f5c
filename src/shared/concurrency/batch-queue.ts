/**
 * Work submitted in the same turn of the event loop, or while `maxInFlight` batches are under
 * way, is taken in batches: batches grow with the load and stay at one piece of work when it is
 * light, and nothing waits for a timer. A subclass says which queued work goes together
 * (`takeBatch`, which may leave some queued) and runs a batch, settling each of its pieces.
 */
export abstract class BatchQueue<E> {
  protected queue: E[] = [];
  private inFlight = 0;
  private inFlightPieces = 0;
  private flushScheduled = false;

  constructor(private readonly maxInFlight: number) {}

  /** The oldest queued work that can go together, taken off the queue; empty when none can go now. */
  protected abstract takeBatch(): E[];

  /** Runs a batch taken by `takeBatch`; never rejects (each piece of work is settled on its own). */
  protected abstract runBatch(batch: E[]): Promise<void>;

  /** Pieces of work queued or in a batch under way (a piece its batch already settled counts until the batch ends). */
  get pending(): number {
    return this.queue.length + this.inFlightPieces;
  }

  protected enqueue(entry: E): void {
    this.queue.push(entry);
    this.scheduleFlush();
  }

  /** After the current turn of the event loop, so work submitted in the same turn shares a batch. */
  private scheduleFlush(): void {
    if (this.flushScheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.maxInFlight) {
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      const pieces = batch.length;
      this.inFlight += 1;
      this.inFlightPieces += pieces;
      void this.runBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.inFlightPieces -= pieces;
        this.scheduleFlush();
      });
    }
  }
}
