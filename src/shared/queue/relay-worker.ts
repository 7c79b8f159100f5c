import { type BeforeApplicationShutdown, Inject, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, JobOptions, Queue } from 'bull';
import { Env } from '../config/env.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { LOST_JOB_GRACE_MS, Relay, type RelaySource } from './relay.js';

/** Where a relay worker's work lives: the looks of RelaySource, with `untake` taking each item's key. */
export interface RelayStore<T, K> {
  takeNew(limit: number): Promise<T[]>;
  takeExpired(limit: number): Promise<T[]>;
  takeStale(limit: number, graceMs: number): Promise<T[]>;
  untake(keys: K[]): Promise<void>;
}

/** One kind of work that Postgres holds and a worker process runs through a Bull queue. */
export interface RelayWorkerOptions<T, K, J> {
  /** Names its log lines: `<name> relay paused: ...`, `<name> worker stopped`. */
  name: string;
  store: RelayStore<T, K>;
  /** What the store's `untake` takes of an item. */
  key(item: T): K;
  /** The Bull job that runs an item. */
  toJob(item: T): { name: string; data: J; opts: JobOptions };
  queue: Queue;
  /** Items taken from Postgres per look. */
  batch: number;
  /** The job name it runs from `queue`, WORKER_CONCURRENCY at a time, with `run`. */
  job: string;
  run(data: J): Promise<unknown>;
  /** Asked at start: false leaves the work to processes that can do it (this one neither relays nor runs). */
  runsHere?(env: Env): boolean;
}

/**
 * The worker side of a relay (see Relay): at start it runs the queue's jobs and hands Postgres'
 * due work to the queue; at shutdown it stops handing over. Each relay of the service extends
 * it with where its work lives and how a job runs.
 */
export abstract class RelayWorker<T, K, J> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  // Injected by property, so each relay's constructor names only what is its own.
  @Inject(Env) private readonly env: Env;
  @Inject(LOGGER) private readonly logger: Logger;
  private relay?: Relay<T>;

  protected constructor(private readonly options: RelayWorkerOptions<T, K, J>) {}

  onApplicationBootstrap(): void {
    const { name, store, key, toJob, queue, batch, job, run, runsHere } = this.options;
    if (runsHere && !runsHere(this.env)) return;
    queue
      .process(job, this.env.WORKER_CONCURRENCY, (taken: Job<J>) => run(taken.data))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, `${name} worker stopped`));
    const source: RelaySource<T> = {
      takeNew: (limit) => store.takeNew(limit),
      takeExpired: (limit) => store.takeExpired(limit),
      takeStale: (limit, graceMs) => store.takeStale(limit, graceMs),
      untake: (items) => store.untake(items.map(key)),
      job: toJob,
    };
    this.relay = new Relay(`${name} relay`, source, queue, batch, LOST_JOB_GRACE_MS, this.logger);
    this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
  }
}
