import { Cluster, type ClusterOptions, Redis } from 'ioredis';
import type { Env } from '../config/env.js';

/** One Redis server, or (REDIS_CLUSTER=true) a Redis Cluster. */
export type RedisConnection = Redis | Cluster;

/** Injection token of the shared command connection (health), a RedisConnection. */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

const COMMAND_TIMEOUT_MS = 250;

/** How long to wait before reconnecting a lost connection (to a server or to one cluster node). */
const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * A connection for commands (health, rate limits). It fails fast instead of queueing while
 * Redis is down, and a command Redis does not answer (a silent connection, not a closed one)
 * fails after COMMAND_TIMEOUT_MS, so no request ever waits on Redis.
 */
export function createRedisClient(env: Pick<Env, 'REDIS_URL' | 'REDIS_CLUSTER'>): RedisConnection {
  const failFast = { maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS };
  const client = env.REDIS_CLUSTER
    ? connectToCluster(env.REDIS_URL, { enableOfflineQueue: false, redisOptions: failFast })
    : new Redis(env.REDIS_URL, { ...failFast, enableOfflineQueue: false, retryStrategy: reconnectDelay });
  client.on('error', () => undefined);
  return client;
}

/**
 * A Redis Cluster discovered from the node `url` names; every node is reached with that URL's
 * credentials (and TLS for rediss://). A cluster has one database: a database number in `url`
 * is not used. A node that restarts is reconnected to, as a lone server would be.
 */
export function connectToCluster(url: string, options: ClusterOptions = {}): Cluster {
  const { protocol, hostname, port, username, password } = new URL(url);
  const cluster = new Cluster([{ host: hostname.replace(/^\[(.*)\]$/, '$1'), port: port ? Number(port) : 6379 }], {
    clusterRetryStrategy: reconnectDelay,
    clusterNodeRetryStrategy: reconnectDelay,
    ...options,
    redisOptions: {
      username: decodeURIComponent(username) || undefined,
      password: decodeURIComponent(password) || undefined,
      tls: protocol === 'rediss:' ? {} : undefined,
      ...options.redisOptions,
    },
  });
  cluster.on('+node', (node: Redis) => node.on('ready', () => loadScripts(cluster, node)));
  return cluster;
}

/**
 * Loads every script defined on `cluster` (Bull's) into a node that has just (re)connected. A
 * master restarted without data has none, and ioredis then fails a script inside MULTI (Bull's
 * addBulk) with NOSCRIPT for good when its first EVAL there was refused (CLUSTERDOWN during the
 * restart); Bull ignores errors inside MULTI, so jobs would be dropped without a word.
 */
function loadScripts(cluster: Cluster, node: Redis): void {
  // ioredis keeps each script's source in a private field.
  for (const script of Object.values(cluster.scriptsSet) as { lua: string }[]) node.script('LOAD', script.lua).catch(() => undefined);
}
