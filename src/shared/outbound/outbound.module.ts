import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Env } from '../config/env.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { OutboundHttp } from './outbound-http.js';

/** The guarded HTTP client for automation steps and event deliveries. */
@Global()
@Module({
  providers: [{
    provide: OutboundHttp,
    inject: [Env, LOGGER],
    useFactory: (env: Env, logger: Logger) => new OutboundHttp(env.OUTBOUND_ALLOW_PRIVATE, { log: logger }),
  }],
  exports: [OutboundHttp],
})
export class OutboundModule implements OnApplicationShutdown {
  constructor(private readonly http: OutboundHttp) {}

  onApplicationShutdown(): Promise<void> {
    return this.http.close();
  }
}
