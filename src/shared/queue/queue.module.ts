import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Env } from '../config/env.js';
import { ClusterQueueConnections } from './cluster-queue-connections.js';
import { ForegroundWork } from './foreground-work.js';
import { QueuesClosing } from './queues-closing.js';

/**
 * Bull on Redis for every asynchronous job; keys live under REDIS_PREFIX. On a Redis Cluster the
 * prefix is a hash tag (`{cis:bull}`): Bull's scripts touch several keys of a queue at once,
 * and a cluster runs a script only on keys of one slot. ForegroundWork is every module's;
 * QueuesClosing closes every queue at once at shutdown.
 */
@Global()
@Module({
  imports: [
    DiscoveryModule,
    BullModule.forRootAsync({
      inject: [Env, ClusterQueueConnections],
      // Provided by Bull's root module, which Nest shuts down after the modules whose queues use the connections.
      extraProviders: [ClusterQueueConnections],
      useFactory: (env: Env, clusterConnections: ClusterQueueConnections) => ({
        ...(env.REDIS_CLUSTER
          ? { createClient: clusterConnections.create, prefix: `{${env.REDIS_PREFIX}:bull}` }
          : { url: env.REDIS_URL, prefix: `${env.REDIS_PREFIX}:bull` }),
        // A job whose worker died goes back to the queue within 6 s: its lock lapses 5 s after the
        // last renewal (a live worker renews it every 2.5 s) and every worker looks for such jobs
        // every second. A live job wrongly found stalled is harmless: runs and deliveries are
        // claimed in Postgres, and the second claim finds the work taken.
        settings: { lockDuration: 5_000, stalledInterval: 1_000 },
      }),
    }),
  ],
  providers: [ForegroundWork, QueuesClosing],
  exports: [ForegroundWork],
})
export class QueueModule {}
