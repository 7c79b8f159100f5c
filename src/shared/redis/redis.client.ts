import { Redis } from 'ioredis';

/**
 * The shared Redis connection for commands (health, rate limits). It fails
 * fast instead of queueing while Redis is down, and a command Redis does not answer (a silent
 * connection, not a closed one) fails after COMMAND_TIMEOUT_MS, so no request ever waits on Redis.
 */
export abstract class RedisClient extends Redis {}

const COMMAND_TIMEOUT_MS = 250;

export function createRedisClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: COMMAND_TIMEOUT_MS, retryStrategy: (n: number) => Math.min(n * 200, 2000) });
  client.on('error', () => undefined);
  return client;
}
