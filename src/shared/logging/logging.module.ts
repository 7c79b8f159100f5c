import { Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from './logger.js';

@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger) {
    return { module: LoggingModule, providers: [{ provide: LOGGER, useValue: logger }], exports: [LOGGER] };
  }
}
