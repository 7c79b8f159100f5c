import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Writable } from 'node:stream';
import pg from 'pg';
import { createApp } from '../../src/app.js';
import type { ExtensionModule } from '../../src/extension-api/index.js';
import { type Env, validateEnv } from '../../src/shared/config/env.js';
import { createLogger } from '../../src/shared/logging/logger.js';
import { readUrlFor } from './test-infra.js';

export interface InjectResult {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent exactly as given, instead of `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** The client's address as the app sees it (`request.ip`); 127.0.0.1 unless given. */
  remoteAddress?: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  env: Env;
  /** Every log line the app wrote, when started with `captureLogs`. */
  logs: string[];
  request(method: string, url: string, options?: RequestOptions): Promise<InjectResult>;
  close(): Promise<void>;
}

/**
 * Boots the real service (real Postgres and Redis of this test run) and drives it through
 * Fastify's inject, which runs the whole HTTP stack: parsers, hooks, guards, filters.
 */
export async function startTestApp(options: { env?: Record<string, string>; captureLogs?: boolean; extensions?: ExtensionModule[] } = {}): Promise<TestApp> {
  const env = validateEnv({ ...process.env, ...options.env, DATABASE_READ_URL: readUrlFor(options.env ?? {}) });
  const logs: string[] = [];
  // The production logger, at its most verbose, writing into `logs`.
  const logger = options.captureLogs
    ? createLogger('trace', new Writable({ write(chunk, _enc, done) { logs.push(String(chunk)); done(); } }))
    : createLogger(env.LOG_LEVEL);
  const app = await createApp(env, logger, { extensions: options.extensions });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  return {
    app,
    env,
    logs,
    async request(method, url, { token, body, rawBody, headers = {}, remoteAddress } = {}) {
      const response = await fastify.inject({
        method: method as 'GET',
        url,
        remoteAddress,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        payload: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      let parsed: unknown;
      try {
        parsed = JSON.parse(response.body);
      } catch {
        parsed = undefined;
      }
      return { status: response.statusCode, headers: response.headers, text: response.body, body: parsed };
    },
    close: () => app.close(),
  };
}

let pool: pg.Pool | undefined;

/** Direct access to this run's database, to check what was (not) stored. */
export function db(): pg.Pool {
  if (!pool) {
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    // An idle connection the server closes must not crash the test process.
    pool.on('error', () => undefined);
  }
  return pool;
}

/** How many transactions stored these cases (intakes arriving together share one). */
export async function transactionsStoring(caseIds: readonly number[]): Promise<number> {
  return (await db().query<{ n: number }>('SELECT count(DISTINCT change_xid)::int AS n FROM cases WHERE id = ANY($1)', [caseIds])).rows[0]!.n;
}

export async function closeDb(): Promise<void> {
  await pool?.end();
  pool = undefined;
}
