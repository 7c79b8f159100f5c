import type { Queue } from 'bull';
import type { Logger } from 'pino';

/** How often each worker makes sure the schedule is in Redis. */
const SCHEDULE_CHECK_MS = 30_000;

/**
 * One repeatable Bull job for the whole deployment: Bull adds each next run once, whichever
 * worker took the last, so the workers share one schedule instead of running once each. Each
 * worker writes the job every 30 s (adding it again with the same interval changes nothing), so
 * a Redis emptied or a job lost is rebuilt; a schedule left with another interval (the last
 * deployment's) is dropped. `what` names it in log lines.
 */
export class RepeatableJob {
  private timer?: NodeJS.Timeout;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly queue: Queue,
    private readonly jobName: string,
    private readonly everyMs: number,
    private readonly what: string,
    private readonly logger: Logger,
  ) {}

  /** Processes the jobs in this process, one at a time, and keeps the schedule in Redis. */
  start(run: () => Promise<unknown>): void {
    this.queue.process(this.jobName, 1, run).catch((err: unknown) => this.logger.error({ err: String(err) }, `${this.what} worker stopped`));
    void this.ensure();
    this.timer = setInterval(() => void this.ensure(), SCHEDULE_CHECK_MS);
  }

  /** Called in beforeApplicationShutdown: a write still running when Bull then closes the queue fails with it, which is the stop, not Redis unavailable. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async ensure(): Promise<void> {
    try {
      for (const job of await this.queue.getRepeatableJobs()) {
        if (job.name === this.jobName && Number(job.every) !== this.everyMs) await this.queue.removeRepeatableByKey(job.key);
      }
      await this.queue.add(this.jobName, {}, { repeat: { every: this.everyMs }, jobId: this.jobName, removeOnComplete: true, removeOnFail: true });
      if (this.failing) this.logger.info(`${this.what} schedule restored`);
      this.failing = false;
    } catch (err) {
      if (!this.failing && !this.stopped) this.logger.warn({ err: String(err) }, `${this.what} schedule not written: Redis unavailable; trying again`);
      this.failing = true;
    }
  }
}
