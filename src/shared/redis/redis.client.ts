import { Redis } from 'ioredis';

/**
 * The shared Redis connection for commands (health, rate limits). It fails
 * fast instead of queueing while Redis is down, so no request ever waits on Redis.
 */
export abstract class RedisClient extends Redis {}

export function createRedisClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: (n: number) => Math.min(n * 200, 2000) });
  client.on('error', () => undefined);
  return client;
}
