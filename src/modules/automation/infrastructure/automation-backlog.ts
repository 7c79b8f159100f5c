import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { ForegroundWork } from '../../../shared/queue/foreground-work.js';
import { AUTOMATION_QUEUE } from './automation.queue.js';

/** Runs waiting in the automation queue from which the workers count as behind: seconds of work at any rate measured (docs/benchmarks.md). */
export const BEHIND_AT_WAITING_RUNS = 1_000;

/** In worker roles: the workers are behind on automation while BEHIND_AT_WAITING_RUNS runs or more wait for one (an LLEN in Redis). */
@Injectable()
export class AutomationBacklog {
  constructor(foreground: ForegroundWork, @InjectQueue(AUTOMATION_QUEUE) queue: Queue) {
    foreground.register(async () => (await queue.getWaitingCount()) >= BEHIND_AT_WAITING_RUNS);
  }
}
