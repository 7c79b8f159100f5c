import type { Logger } from 'pino';

const IDLE_POLL_MS = 100;

/**
 * Calls `pass` over and over: at once while it reports a full batch, every 100 ms (or `idleMs`) when idle,
 * and with a bounded backoff while Postgres or Redis is unavailable (logged once per outage).
 * Used by the relays that move due work from Postgres to Bull, and by the reports' fold.
 * Its owner stops it in `beforeApplicationShutdown`: TypeORM and Bull close their connections in
 * `onApplicationShutdown`, in an order of modules Nest chooses, and a pass still running then fails
 * with them and logs an outage that is only the stop.
 */
export class PollingLoop {
  private stopped = false;
  private running?: Promise<void>;
  /** Ends the pause under way: a stop need not wait out an idle pause or an outage's backoff (seconds). */
  private wake = () => {};

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<number>,
    private readonly batchSize: number,
    private readonly logger: Logger,
    private readonly idleMs = IDLE_POLL_MS,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        const moved = await this.pass();
        if (failures > 0) this.logger.info(`${this.name} resumed`);
        failures = 0;
        if (moved < this.batchSize) await this.pause(this.idleMs);
      } catch (err) {
        if (failures++ === 0) this.logger.warn({ err: String(err) }, `${this.name} paused: database or queue unavailable`);
        await this.pause(Math.min(200 * 2 ** failures, 5000));
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
