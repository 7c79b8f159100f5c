import { Controller, Get, HttpCode, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { Public } from '../../../shared/http/route-credentials.js';
import { schemaRef } from '../../../shared/http/openapi-schema.js';
import { DatabaseProbe } from '../application/database-probe.js';
import { ServiceUnavailableError } from '../../../shared/errors/app-error.js';
import { REDIS_CLIENT, type RedisConnection } from '../../../shared/redis/redis.client.js';

const CHECK_TIMEOUT_MS = 2000;
/** How long one readiness check answers every probe: a flood of /readyz costs one check a second. */
const CHECK_REUSE_MS = 1000;

/** Probes for load balancers and orchestrators, which hold no credential. */
@Controller()
@Public()
@ApiTags('Health')
export class HealthController {
  /** The latest check (still running or done) and when it started; concurrent probes share it. */
  private latest?: { startedAt: number; ready: Promise<boolean> };

  constructor(private readonly database: DatabaseProbe, @Inject(REDIS_CLIENT) private readonly redis: RedisConnection) {}

  /** The process is up and serving HTTP. */
  @Get('healthz')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'liveness',
    summary: 'Liveness probe',
    description: 'The process is up and serving HTTP. Checks nothing else and needs no credential.',
    success: { status: 200, description: 'Alive.', schema: schemaRef('Health') },
  })
  healthz() {
    return { status: 'ok' };
  }

  /** Postgres and Redis both answered a check started less than a second ago: the instance can take traffic. */
  @Get('readyz')
  @ApiEndpoint({
    operationId: 'readiness',
    summary: 'Readiness probe',
    description: 'Postgres and Redis both answer within 2 seconds: the instance can take traffic. Needs no credential. One check a second serves every probe (concurrent probes share it), so the answer can be up to a second old.',
    success: { status: 200, description: 'Ready.', schema: schemaRef('Readiness') },
    errors: { 503: 'Postgres or Redis did not answer within 2 seconds: take this instance out of rotation.' },
  })
  async readyz() {
    if (!(await this.check())) throw new ServiceUnavailableError();
    return { status: 'ready', postgres: 'ok', redis: 'ok' };
  }

  private check(): Promise<boolean> {
    const now = Date.now();
    if (!this.latest || now - this.latest.startedAt >= CHECK_REUSE_MS) {
      const checks = [withTimeout(this.database.ping()), withTimeout(this.redis.ping())];
      this.latest = { startedAt: now, ready: Promise.all(checks).then((answers) => answers.every(Boolean)) };
    }
    return this.latest.ready;
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
