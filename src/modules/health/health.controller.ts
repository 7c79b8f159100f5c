import { Controller, Get, HttpCode } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '../../shared/errors/app-error.js';
import { RedisClient } from '../../shared/redis/redis.client.js';

const CHECK_TIMEOUT_MS = 2000;

@Controller()
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly redis: RedisClient) {}

  /** The process is up and serving HTTP. */
  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { status: 'ok' };
  }

  /** Postgres and Redis both answer: the instance can take traffic. */
  @Get('readyz')
  async readyz() {
    const [postgres, redis] = await Promise.all([
      withTimeout(this.dataSource.query('SELECT 1')),
      withTimeout(this.redis.ping()),
    ]);
    if (!postgres || !redis) throw new ServiceUnavailableError();
    return { status: 'ready', postgres: 'ok', redis: 'ok' };
  }
}

async function withTimeout(check: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([check.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
