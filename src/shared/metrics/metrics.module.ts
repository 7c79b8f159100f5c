import { Controller, Get, Global, Header, Injectable, Module } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiEndpoint } from '../http/api-endpoint.decorator.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { Env } from '../config/env.js';
import { UnauthorizedError } from '../errors/app-error.js';
import { bearerSecret, type CredentialCheck, RequiresCredential } from '../http/route-credentials.js';

/** One Prometheus registry per process; each module registers its own metrics in it. */
export abstract class MetricsRegistry extends Registry {}

export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Request latency by route pattern (never by URL: a webhook URL carries its token). */
export function httpLatencyHistogram(registry: MetricsRegistry): Histogram<'method' | 'route' | 'status'> {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
}

/** With METRICS_TOKEN set, only `Authorization: Bearer <METRICS_TOKEN>` may scrape; unset, /metrics is open. */
@Injectable()
export class MetricsTokenCheck implements CredentialCheck<{ kind: 'metrics' }> {
  constructor(private readonly env: Env) {}

  authenticate(request: FastifyRequest): void {
    const expected = this.env.METRICS_TOKEN;
    if (expected === undefined) return;
    const presented = bearerSecret(request);
    // Digests have one length whatever was sent, so the comparison time tells nothing about the token.
    const digest = (text: string) => createHash('sha256').update(text).digest();
    if (presented === undefined || !timingSafeEqual(digest(presented), digest(expected))) throw new UnauthorizedError();
  }
}

@Controller()
@RequiresCredential({ kind: 'metrics' })
@ApiTags('Health')
// METRICS_TOKEN, or nothing when the service has none (decorators apply bottom-up: this order lists METRICS_TOKEN first).
@ApiSecurity({})
@ApiSecurity('metricsToken')
class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiEndpoint({
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'The process\'s metrics in the Prometheus text format: Node.js runtime figures, workflow runs started and finished (live and test apart, `mode` label), and in worker roles the rows the retention purge deleted (`purged_rows_total`, `kind` label) and the SLA sweep\'s passes and firings (`sla_sweep_pass_seconds`, `sla_timers_fired_total`, `sla_timer_lateness_seconds`). With `METRICS_TOKEN` set, needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without it, needs no credential: expose it to the scraper only.',
    success: { status: 200, description: 'The metrics.', mediaType: 'text/plain', schema: { type: 'string' } },
  })
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}

@Global()
@Module({})
export class MetricsModule {
  static forRoot(registry: MetricsRegistry) {
    return {
      module: MetricsModule,
      controllers: [MetricsController],
      providers: [{ provide: MetricsRegistry, useValue: registry }, MetricsTokenCheck],
      exports: [MetricsRegistry],
    };
  }
}
