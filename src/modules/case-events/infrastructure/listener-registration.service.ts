import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CaseEventListenerRegistry } from '../application/case-event-listener.registry.js';
import { ListenerHandlingRepository } from './listener-handling.repository.js';

/**
 * Records in Postgres which events this process's listeners want, in every role, before the
 * process takes requests: the statements that store changes read it, whichever process runs them.
 */
@Injectable()
export class ListenerRegistration implements OnApplicationBootstrap {
  constructor(private readonly listeners: CaseEventListenerRegistry, private readonly handlings: ListenerHandlingRepository) {}

  onApplicationBootstrap(): Promise<void> {
    return this.handlings.register(this.listeners.all().map(({ name, events }) => ({ name, events })));
  }
}
