import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Cluster } from 'ioredis';
import { Env } from '../config/env.js';
import { connectToCluster } from '../redis/redis.client.js';

type ConnectionType = 'client' | 'subscriber' | 'bclient';

/**
 * Bull's connections to a Redis Cluster (REDIS_CLUSTER=true), made by its `createClient`.
 * Bull closes the connections it opens itself, never those `createClient` gave it: they
 * are closed here, once the queues have closed (see QueueModule).
 */
@Injectable()
export class ClusterQueueConnections implements OnApplicationShutdown {
  private readonly opened = new Set<Cluster>();

  constructor(private readonly env: Env) {}

  /**
   * Bull's `createClient`: a new connection for each queue and type. The blocking (`bclient`)
   * and event (`subscriber`) connections wait through an outage instead of failing their
   * command, which Bull requires; commands on `client` fail after ioredis' retries, as on one server.
   */
  readonly create = (type: ConnectionType): Cluster => {
    const waitThroughOutages = type !== 'client';
    const cluster = connectToCluster(this.env.REDIS_URL, {
      redisOptions: { enableReadyCheck: false, ...(waitThroughOutages ? { maxRetriesPerRequest: null } : {}) },
    });
    // Kept even once it ends: Bull's pause ends the blocking connection and connects it again.
    this.opened.add(cluster);
    return cluster;
  };

  onApplicationShutdown(): void {
    for (const cluster of this.opened) cluster.disconnect();
  }
}
