import type { JobOptions, Queue } from 'bull';
import type { Logger } from 'pino';
import type { Transaction, TransactionRunner } from '../database/transaction.js';
import { PollingLoop } from './polling-loop.js';

/** How often a relay looks for work whose holder's lease ran out: part of the takeover bound (see Relay). */
export const LEASE_CHECK_EVERY_MS = 1_000;
const STALE_CHECK_EVERY_MS = 5_000;
/**
 * How long Redis may take to accept a batch while its items stay locked: rows that a worker's
 * claim or a case's move waits for are not held through a Redis outage. Jobs that Redis takes
 * after the pass gave up are harmless: their items are taken again, and Bull ignores a job id it holds.
 */
const QUEUE_ADD_TIMEOUT_MS = 2_000;

/**
 * Where a relay finds work that Postgres holds and Bull should run. Each take marks the items
 * it returns as handed over, in `tx`, and locks them until `tx` ends (SKIP LOCKED lets other
 * relays pass them by).
 */
export interface RelaySource<T> {
  /** Up to `limit` items never handed to the queue. */
  takeNew(tx: Transaction, limit: number): Promise<T[]>;
  /** The same for items whose worker's lease ran out (it died) and that were not handed over since. */
  takeExpired(tx: Transaction, limit: number): Promise<T[]>;
  /** The same for items handed over more than `graceMs` ago that never ran (their job was lost). */
  takeStale(tx: Transaction, limit: number, graceMs: number): Promise<T[]>;
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
 * Items are marked as handed over in the transaction that puts their jobs on the queue, and
 * that commits only once Redis has them: a relay that dies (or whose Redis refuses the jobs)
 * between the two leaves its items as they were, free for the next pass of any relay at once,
 * instead of marked and waiting out the grace period for lost jobs.
 *
 * The work of a worker killed outright is taken over within RUN_LEASE_MS (or a delivery's
 * lease) plus LEASE_CHECK_EVERY_MS for what it held under a lease, and within Bull's lock
 * duration plus its stalled check (QueueModule) for jobs it had taken and not yet claimed.
 */
export class Relay<T> {
  private readonly loop: PollingLoop;
  private readonly leaseCheck = new Every(LEASE_CHECK_EVERY_MS);
  private readonly staleCheck = new Every(STALE_CHECK_EVERY_MS);

  constructor(
    name: string,
    private readonly source: RelaySource<T>,
    private readonly queue: Queue,
    private readonly transactions: TransactionRunner,
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

  /** One pass; returns how many items it handed to the queue. */
  relayOnce(): Promise<number> {
    return this.transactions.run(async (tx) => {
      const due = await this.source.takeNew(tx, this.batch);
      if (this.leaseCheck.due()) due.push(...(await this.source.takeExpired(tx, this.batch)));
      const stale = this.staleCheck.due() ? await this.source.takeStale(tx, this.batch, this.graceMs) : [];
      due.push(...stale);
      if (!due.length) return 0;
      const jobs = due.map((item) => this.source.job(item));
      // The stale items are the last ones taken.
      await within(QUEUE_ADD_TIMEOUT_MS, async () => {
        if (stale.length) await this.dropJobsWithoutData(jobs.slice(-stale.length));
        await this.queue.addBulk(jobs);
      });
      return due.length;
    });
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

/** `work`'s outcome, or a failure once `ms` have passed without one. */
async function within(ms: number, work: () => Promise<void>): Promise<void> {
  const done = work();
  done.catch(() => undefined); // answered by the race below, or too late to matter
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the queue did not accept the jobs within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}
