import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Env } from '../../../shared/config/env.js';
import { ForegroundWork } from '../../../shared/queue/foreground-work.js';
import { REDIS_CLIENT, type RedisConnection } from '../../../shared/redis/redis.client.js';
import { PostgresCaseRepository } from './postgres-case.repository.js';

/** How often an API instance counts the new cases waiting for Postgres. */
export const SAMPLE_MS = 100;
/**
 * New cases waiting at once from which a sample counts as busy: about a thousand a second at
 * 4 ms each (rate times wait), where an instance serving a steady trickle has none or one.
 */
export const BUSY_PENDING = 4;
/** The last samples looked at: a second's. */
export const WINDOW_SAMPLES = 10;
/** Of those, how many must have been busy for intake to count as pressed: a burst, not one busy moment. */
export const PRESSED_SAMPLES = 5;
/** How long the marker lives after it was last set: with the window, the workers give way for 1-2.6 s after a burst. */
export const MARKER_MS = 2_000;

/**
 * Whether intake is pressed, for every instance: the one demand on a shared machine that a sender
 * waits on. Each API instance counts the new cases its intake batches hold (queued, or in a
 * transaction under way: the load times how long Postgres takes, which rises with either) and,
 * while at least PRESSED_SAMPLES of the last WINDOW_SAMPLES counted BUSY_PENDING or more, keeps a
 * marker in Redis that lives MARKER_MS, set again only when half gone: a burst costs Redis a
 * command a second per instance, and a request nothing. In worker roles it tells ForegroundWork
 * intake is pressed while the marker lives, so background upkeep (the search index) gives way, as
 * it does to automation (docs/search.md). Redis unavailable: no marker, and no worker gives way.
 */
@Injectable()
export class IntakePressure implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly window: boolean[] = [];
  private markedUntil = 0;
  private sampler?: NodeJS.Timeout;

  constructor(
    private readonly env: Env,
    @Inject(REDIS_CLIENT) private readonly redis: RedisConnection,
    private readonly cases: PostgresCaseRepository,
    private readonly foreground: ForegroundWork,
  ) {}

  onApplicationBootstrap(): void {
    if (this.env.ROLE !== 'worker') this.sampler = setInterval(() => this.sample(this.cases.intakesPending()), SAMPLE_MS).unref();
    if (this.env.ROLE !== 'api') this.foreground.register(() => this.pressed());
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.sampler);
  }

  /** One sample: how many new cases were waiting for Postgres. */
  sample(pending: number): void {
    this.window.push(pending >= BUSY_PENDING);
    if (this.window.length > WINDOW_SAMPLES) this.window.shift();
    if (this.window.filter(Boolean).length < PRESSED_SAMPLES) return;
    const now = performance.now();
    if (this.markedUntil - now > MARKER_MS / 2) return;
    this.markedUntil = now + MARKER_MS;
    // Unset, the workers only keep their pace: nothing to retry.
    this.redis.set(this.key(), '1', 'PX', MARKER_MS).catch(() => undefined);
  }

  /** Whether an API instance found intake pressed within the last MARKER_MS. */
  async pressed(): Promise<boolean> {
    return (await this.redis.exists(this.key())) === 1;
  }

  private key(): string {
    return `${this.env.REDIS_PREFIX}:intake-pressed`;
  }
}
