import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { RunRef } from '../../cases/domain/run-queue.js';
import { RunScheduler } from '../application/run-engine.ports.js';
import { AUTOMATION_QUEUE, RUN_JOB, runJobOptions } from './automation.queue.js';

/** A parked run comes back as a delayed job, one per resumption time (see `runJobOptions`). */
@Injectable()
export class BullRunScheduler implements RunScheduler {
  constructor(@InjectQueue(AUTOMATION_QUEUE) private readonly queue: Queue) {}

  async resumeAt(ref: RunRef, at: Date): Promise<void> {
    await this.queue.add(RUN_JOB, ref, runJobOptions(ref.runId, `resume-${at.getTime()}`, at));
  }
}
