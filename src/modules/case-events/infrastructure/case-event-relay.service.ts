import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { LOST_JOB_GRACE_MS, Relay } from '../../../shared/queue/relay.js';
import { CaseEventDispatcher } from '../application/case-event-dispatcher.js';
import { CaseEventListenerRegistry } from '../application/case-event-listener.registry.js';
import type { HandlingRef } from '../domain/listener-handlings.js';
import { CASE_EVENTS_QUEUE, HANDLE_JOB, handleJobOptions } from './case-events.queue.js';
import { ListenerHandlingRepository } from './listener-handling.repository.js';

const BATCH = 200;

/**
 * In worker roles: hands due handlings of this process's listeners to Bull (see Relay) and
 * runs them. Nothing is lost while Redis or a listener is down: the handling stays pending in
 * Postgres and is taken again. A process with no listener neither polls nor processes.
 */
@Injectable()
export class CaseEventRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: Relay<HandlingRef>;

  constructor(
    handlings: ListenerHandlingRepository,
    private readonly listeners: CaseEventListenerRegistry,
    private readonly dispatcher: CaseEventDispatcher,
    private readonly env: Env,
    @InjectQueue(CASE_EVENTS_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.relay = new Relay(
      'case-event relay',
      {
        takeNew: (limit) => handlings.takeNew(limit, listeners.names()),
        takeExpired: (limit) => handlings.takeExpired(limit, listeners.names()),
        takeStale: (limit, graceMs) => handlings.takeStale(limit, listeners.names(), graceMs),
        untake: (due) => handlings.untake(due),
        job: (ref) => ({ name: HANDLE_JOB, data: ref, opts: handleJobOptions(ref) }),
      },
      queue,
      BATCH,
      LOST_JOB_GRACE_MS,
      logger,
    );
  }

  onApplicationBootstrap(): void {
    if (!this.listeners.names().length) return;
    this.queue
      .process(HANDLE_JOB, this.env.WORKER_CONCURRENCY, (job: Job<HandlingRef>) => this.dispatcher.dispatch(job.data))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'case-event worker stopped'));
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
