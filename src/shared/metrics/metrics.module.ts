import { Controller, Get, Global, Header, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** One Prometheus registry per process; each module registers its own metrics in it. */
export abstract class MetricsRegistry extends Registry {}

@Controller()
class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}

@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    {
      provide: MetricsRegistry,
      useFactory: () => {
        const registry = new Registry();
        collectDefaultMetrics({ register: registry });
        return registry;
      },
    },
  ],
  exports: [MetricsRegistry],
})
export class MetricsModule {}
