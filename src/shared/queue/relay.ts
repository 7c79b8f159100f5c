import type { JobOptions, Queue } from 'bull';
import type { Logger } from 'pino';
import { PollingLoop } from './polling-loop.js';

/** How often a relay looks for work whose holder's lease ran out: part of the takeover bound (see Relay). */
export const LEASE_CHECK_EVERY_MS = 1_000;
/**
 * How long an item marked as handed over may go without running before a relay takes it again:
 * its job was lost (Redis restarted, or the relay that marked it died before Redis had it), or
 * it still waits on the queue, and then Bull ignores the add. Short, as that add costs nothing.
 */
export const LOST_JOB_GRACE_MS = 4_000;
/** How often a relay looks for lost work: with the relays' grace (a few seconds), part of the takeover bound too (see Relay). */
const STALE_CHECK_EVERY_MS = 3_000;

/** Where a relay finds work that Postgres holds and Bull should run. */
export interface RelaySource<T> {
  /** Marks up to `limit` items never handed to the queue as handed over, and returns them. */
  takeNew(limit: number): Promise<T[]>;
  /** The same for items whose worker's lease ran out (it died) and that were not handed over since. */
  takeExpired(limit: number): Promise<T[]>;
  /** The same for items handed over more than `graceMs` ago that never ran (their job was lost). */
  takeStale(limit: number, graceMs: number): Promise<T[]>;
  /** Redis refused them: they become new again. */
  untake(items: T[]): Promise<void>;
  job(item: T): { name: string; data: unknown; opts: JobOptions };
}

/** True once every `everyMs`. */
class Every {
  private next = 0;

  constructor(private readonly everyMs: number) {}

  due(): boolean {
    if (Date.now() < this.next) return false;
    this.next = Date.now() + this.everyMs;
    return true;
  }
}

/**
 * Moves due work from Postgres to a Bull queue in batches. Postgres is the source of truth:
 * intake writes work in its own transaction and never touches Redis; the relays (one per worker
 * process, sharing rows through SKIP LOCKED) hand it to Bull, and take again anything whose job
 * was lost. Job ids make a repeat harmless. New work is looked for all the time, work a dead
 * worker held every second (indexed by lease), lost work every few seconds (that look scans
 * every unfinished item).
 *
 * The work of a worker killed outright is taken over within RUN_LEASE_MS (or a delivery's
 * lease) plus LEASE_CHECK_EVERY_MS for what it held under a lease, within Bull's lock duration
 * plus its stalled check (QueueModule) for jobs it had taken and not yet claimed, and within the
 * relay's grace plus STALE_CHECK_EVERY_MS for items its relay had marked as handed over and died
 * before Redis had their jobs. That last grace is short (seconds) because taking an item again
 * whose job is still on the queue costs only the add that Bull ignores.
 */
export class Relay<T> {
  private readonly loop: PollingLoop;
  private readonly leaseCheck = new Every(LEASE_CHECK_EVERY_MS);
  private readonly staleCheck = new Every(STALE_CHECK_EVERY_MS);

  constructor(
    name: string,
    private readonly source: RelaySource<T>,
    private readonly queue: Queue,
    private readonly batch: number,
    private readonly graceMs: number,
    logger: Logger,
  ) {
    this.loop = new PollingLoop(name, () => this.relayOnce(), batch, logger);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One pass; returns how many items it handed to the queue. A look that fails (Postgres
   * cancelled it at its statement_timeout, or went away) fails the pass, but only after what the
   * looks before it took went to the queue: those items are marked as handed over, and only
   * the look for lost work, the slowest, would find them again.
   */
  async relayOnce(): Promise<number> {
    const due: T[] = [];
    let stale: T[] = [];
    let lookFailed: { err: unknown } | undefined;
    try {
      due.push(...(await this.source.takeNew(this.batch)));
      if (this.leaseCheck.due()) due.push(...(await this.source.takeExpired(this.batch)));
      if (this.staleCheck.due()) due.push(...(stale = await this.source.takeStale(this.batch, this.graceMs)));
    } catch (err) {
      lookFailed = { err };
    }
    if (due.length) await this.handOver(due, stale.length);
    if (lookFailed) throw lookFailed.err;
    return due.length;
  }

  /** Adds the items' jobs; the last `stale` of them were taken as lost work. Redis refusing them makes them new again. */
  private async handOver(due: T[], stale: number): Promise<void> {
    const jobs = due.map((item) => this.source.job(item));
    try {
      if (stale) await this.dropJobsWithoutData(jobs.slice(-stale));
      await this.queue.addBulk(jobs);
    } catch (err) {
      await this.source.untake(due);
      throw err;
    }
  }

  /**
   * When Redis loses its keys while a worker takes a job, Bull's move to active writes the job's
   * hash again with nothing but `processedOn`. That husk never runs, yet it makes Bull ignore
   * every later add under its id, the relay's re-enqueue of the lost work included. Stale items'
   * husks go first; a job that still has its data is left alone (Bull then ignores the add).
   */
  private async dropJobsWithoutData(jobs: { opts: JobOptions }[]): Promise<void> {
    const keys = jobs.map((job) => this.queue.toKey(String(job.opts.jobId)));
    await this.queue.client.eval(DROP_JOBS_WITHOUT_DATA, keys.length, ...keys);
  }
}

const DROP_JOBS_WITHOUT_DATA = `
  for _, key in ipairs(KEYS) do
    if redis.call('HEXISTS', key, 'data') == 0 then redis.call('DEL', key) end
  end
  return 0`;
