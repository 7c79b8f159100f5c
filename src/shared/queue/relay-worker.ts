import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import type { Logger } from 'pino';
import { LOST_JOB_GRACE_MS, Relay, type RelaySource } from './relay.js';

/** One kind of work that Postgres holds and a worker process runs through a Bull queue. */
export interface RelayWorkerOptions<T, J> {
  /** Names its log lines: `<name> relay paused: ...`, `<name> worker stopped`. */
  name: string;
  source: RelaySource<T>;
  queue: Queue;
  /** Items taken from Postgres per look. */
  batch: number;
  /** The job name it runs from `queue`, `concurrency` at a time, with `run`. */
  job: string;
  concurrency: number;
  run(data: J): Promise<unknown>;
  /** Asked at start: false leaves the work to processes that can do it (this one neither relays nor runs). */
  runsHere?(): boolean;
  logger: Logger;
}

/**
 * The worker side of a relay (see Relay): at start it runs the queue's jobs and hands Postgres'
 * due work to the queue; at shutdown it stops handing over. Each relay of the service extends
 * it with what it moves and how a job runs.
 */
export abstract class RelayWorker<T, J> implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: Relay<T>;

  protected constructor(private readonly options: RelayWorkerOptions<T, J>) {
    const { name, source, queue, batch, logger } = options;
    this.relay = new Relay(`${name} relay`, source, queue, batch, LOST_JOB_GRACE_MS, logger);
  }

  onApplicationBootstrap(): void {
    const { name, queue, job, concurrency, run, runsHere, logger } = this.options;
    if (runsHere && !runsHere()) return;
    queue
      .process(job, concurrency, (taken: Job<J>) => run(taken.data))
      .catch((err: unknown) => logger.error({ err: String(err) }, `${name} worker stopped`));
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
