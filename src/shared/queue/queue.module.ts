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
        // A job whose worker died goes back to the queue within 6 s: its lock lapses 5 s after the
        // last renewal (a live worker renews it every 2.5 s) and every worker looks for such jobs
        // every second. A live job wrongly found stalled is harmless: runs and deliveries are
        // claimed in Postgres, and the second claim finds the work taken.
        settings: { lockDuration: 5_000, stalledInterval: 1_000 },
      }),
    }),
  ],
})
export class QueueModule {}
