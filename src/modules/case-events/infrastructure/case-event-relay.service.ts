import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { RelayWorker } from '../../../shared/queue/relay-worker.js';
import { CaseEventDispatcher } from '../application/case-event-dispatcher.js';
import { CaseEventListenerRegistry } from '../application/case-event-listener.registry.js';
import type { HandlingRef } from '../domain/listener-handlings.js';
import { CASE_EVENTS_QUEUE, HANDLE_JOB, handleJobOptions } from './case-events.queue.js';
import { ListenerHandlingRepository } from './listener-handling.repository.js';

/**
 * In worker roles: hands due handlings of this process's listeners to Bull (see Relay) and
 * runs them. Nothing is lost while Redis or a listener is down: the handling stays pending in
 * Postgres and is taken again. A process with no listener neither polls nor processes.
 */
@Injectable()
export class CaseEventRelay extends RelayWorker<HandlingRef, HandlingRef, HandlingRef> {
  constructor(
    handlings: ListenerHandlingRepository,
    listeners: CaseEventListenerRegistry,
    dispatcher: CaseEventDispatcher,
    @InjectQueue(CASE_EVENTS_QUEUE) queue: Queue,
  ) {
    super({
      name: 'case-event',
      // Only the handlings of this process's listeners: a process leaves the others to those that run them.
      store: {
        takeNew: (limit) => handlings.takeNew(limit, listeners.names()),
        takeExpired: (limit) => handlings.takeExpired(limit, listeners.names()),
        takeStale: (limit, graceMs) => handlings.takeStale(limit, listeners.names(), graceMs),
        untake: (refs) => handlings.untake(refs),
      },
      key: (ref) => ref,
      toJob: (ref) => ({ name: HANDLE_JOB, data: ref, opts: handleJobOptions(ref) }),
      queue,
      batch: 200,
      job: HANDLE_JOB,
      run: (ref) => dispatcher.dispatch(ref),
      runsHere: () => listeners.names().length > 0,
    });
  }
}
