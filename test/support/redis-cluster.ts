/** A Redis Cluster of three masters (no replicas) on local ports, for the REDIS_CLUSTER=true spec. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import net from 'node:net';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, type RunningService, startLocalRedis } from '../../scripts/local-infra.js';
import { eventually } from './automation-helpers.js';

const run = promisify(execFile);
/** A node's cluster bus listens on its port + 10000. */
const BUS_PORT_OFFSET = 10_000;
const MASTERS = 3;

export interface LocalRedisCluster {
  /** A REDIS_URL naming the first node. */
  url: string;
  ports: number[];
  /** The port of the master serving the slot of `key`. */
  portServing(key: string): Promise<number>;
  /** Stops the node on `port` (SIGTERM; it saves nothing). */
  stopNode(port: number): Promise<void>;
  /** Starts the stopped node on `port` again from its nodes.conf, with no data; resolves once the cluster is whole again. */
  startNode(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** Whether 127.0.0.1:`port` can be listened on now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer().unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A free port whose bus port (port + 10000, at most 65535) is free too. */
async function freeNodePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + BUS_PORT_OFFSET <= 65_535 && (await isFree(port + BUS_PORT_OFFSET))) return port;
  }
}

async function clusterInfo(port: number): Promise<string> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return String(await redis.call('CLUSTER', 'INFO'));
  } catch (err) {
    return `unreachable: ${String(err)}`;
  } finally {
    redis.disconnect();
  }
}

/** Waits until every node reports the cluster ok, with all masters known. */
async function waitUntilWhole(ports: number[]): Promise<void> {
  const infos = () => Promise.all(ports.map(clusterInfo));
  await eventually(
    'every Redis Cluster node to report cluster_state:ok',
    async () => ((await infos()).every((info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${MASTERS}`)) ? true : undefined),
    { explain: async () => (await infos()).map((info, i) => `${ports[i]}: ${info.split('\n').slice(0, 3).join(' ')}`).join('; ') },
  );
}

/**
 * Starts three `redis-server --cluster-enabled yes` (data and nodes.conf each in a directory
 * under `scratch`), joins them with `redis-cli --cluster create` and waits for cluster_state:ok.
 * Fails (never skips) when redis-server or redis-cli is missing.
 */
export async function startRedisCluster(scratch: string): Promise<LocalRedisCluster> {
  const ports: number[] = [];
  while (ports.length < MASTERS) {
    const port = await freeNodePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const nodes = new Map<number, RunningService>();
  const startNode = async (port: number) => {
    nodes.set(port, await startLocalRedis(join(scratch, `redis-${port}`), port, false, ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']));
  };
  const stop = async () => {
    await Promise.all([...nodes.values()].map((node) => node.stop()));
    nodes.clear();
  };
  try {
    for (const port of ports) await startNode(port);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    await waitUntilWhole(ports);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${ports[0]}`,
    ports,
    async portServing(key) {
      const redis = new Redis({ port: ports[0], host: '127.0.0.1', maxRetriesPerRequest: 1 });
      try {
        const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', key));
        const ranges = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const range = ranges.find(([first, last]) => first <= slot && slot <= last);
        if (!range) throw new Error(`no node serves slot ${slot}`);
        return range[2][1];
      } finally {
        redis.disconnect();
      }
    },
    async stopNode(port) {
      await nodes.get(port)?.stop();
      nodes.delete(port);
    },
    async startNode(port) {
      await startNode(port);
      await waitUntilWhole(ports);
    },
    stop,
  };
}
