import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { countInWindow } from '../../../shared/redis/fixed-window.js';
import { REDIS_CLIENT, type RedisConnection } from '../../../shared/redis/redis.client.js';

const WINDOW_MS = 60_000;

/**
 * Messages one workflow's inbound address takes a minute, from every sender together and across
 * instances (EMAIL_MESSAGES_PER_MINUTE). The address is the one a support team hands out, so
 * anyone may write to it: a stream of mail makes cases (and stores their files) no faster than
 * this. Past it `RCPT TO` answers `451 4.7.1` and the sending server keeps the message and tries
 * again later, as it does after any temporary failure. A fixed window per address in Redis, like
 * the HTTP rate limits; while Redis is unavailable no message is held back.
 */
@Injectable()
export class InboundMailLimits {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: RedisConnection,
    private readonly env: Env,
  ) {}

  /** Counts a message to the workflow's address: whether the minute's are spent. */
  async refused(organizationId: number, workflowId: number): Promise<boolean> {
    const max = this.env.EMAIL_MESSAGES_PER_MINUTE;
    if (max === 0) return false;
    try {
      return (await countInWindow(this.redis, `${this.env.REDIS_PREFIX}:inbound-mail:${organizationId}:${workflowId}`, WINDOW_MS)).count > max;
    } catch {
      return false;
    }
  }
}
