import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { Env } from '../config/env.js';

/** Bull on Redis for every asynchronous job; keys live under REDIS_PREFIX. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [Env],
      useFactory: (env: Env) => ({
        url: env.REDIS_URL,
        prefix: `${env.REDIS_PREFIX}:bull`,
        // A job whose worker died goes back to the queue within about 20 s (a live worker renews its lock).
        settings: { lockDuration: 15_000, stalledInterval: 5_000 },
      }),
    }),
  ],
})
export class QueueModule {}
