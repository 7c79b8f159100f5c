import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { Env } from '../config/env.js';

/** Bull on Redis for every asynchronous job; keys live under REDIS_PREFIX. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [Env],
      useFactory: (env: Env) => ({ url: env.REDIS_URL, prefix: `${env.REDIS_PREFIX}:bull` }),
    }),
  ],
})
export class QueueModule {}
