import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import Bull from 'bull';

/**
 * Closes every Bull queue of the process at once when it shuts down. Each queue's own close,
 * which Nest calls module after module, waits up to half a second for Redis to end its worker's
 * blocking wait for jobs: one after another, that was seconds of every worker's stop. Global
 * modules shut down after the others, so the relays and schedules that add jobs have stopped by
 * now; jobs under way are waited for, as before. A queue's own close later finds it closed.
 */
@Injectable()
export class QueuesClosing implements BeforeApplicationShutdown {
  constructor(private readonly discovery: DiscoveryService) {}

  async beforeApplicationShutdown(): Promise<void> {
    const queues = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is Bull.Queue => instance instanceof Bull);
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
