/**
 * What a benchmark run stands on: Postgres and Redis (given, or started for the run), a fresh
 * migrated database and Redis prefix, and the service's fixtures (an organization, an API token,
 * two published workflows and their webhook URLs) created through the service's own HTTP API.
 */
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useOrStartServers } from '../scripts/local-infra.js';
import { createTestDatabase, dropTestDatabase, flushRedisPrefix } from '../test/support/test-infra.js';
import { BENCH_ATTRIBUTES } from './payloads.js';

export interface Infra {
  serverUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** DATABASE_URL / REDIS_URL when set; otherwise an embedded Postgres and a local redis-server. */
export async function startInfra(): Promise<Infra> {
  const scratch = await mkdtemp(join(tmpdir(), 'cis-bench-'));
  const servers = await useOrStartServers(scratch, false);
  return {
    serverUrl: servers.postgresUrl,
    redisUrl: servers.redisUrl,
    stop: async () => {
      await servers.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** A fresh database on the server of `serverUrl`, migrated with runMigrations; returns its URL. */
export const createBenchDatabase = createTestDatabase;
export const dropBenchDatabase = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return dropTestDatabase(serverUrl, url.toString());
};
export { flushRedisPrefix };

/** Redis's version and (when it runs on this machine) its pid. */
export async function redisInfo(redisUrl: string): Promise<{ version: string; pid: number | null; local: boolean }> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const info = await redis.info('server');
    const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
    const host = new URL(redisUrl).hostname;
    const local = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);
    return { version: field('redis_version') ?? 'unknown', pid: local ? Number(field('process_id')) || null : null, local };
  } finally {
    redis.disconnect();
  }
}

export function runId(): string {
  return `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

// ---------------------------------------------------------------------------
// Fixtures through the service's HTTP API
// ---------------------------------------------------------------------------

export async function call(base: string, method: string, path: string, token: string, body?: unknown, expected = [200, 201]): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export interface BenchWorkflow {
  id: number;
  /** Path and query of its webhook URL. */
  webhookPath: string;
  casesPath: string;
}

export interface Fixtures {
  organizationId: number;
  /** The organization's admin token, for parts that set up workflows of their own or read reports. */
  adminToken: string;
  apiToken: string;
  /** Target of the HTTP scenarios: typed attributes, an Open run (so intake writes a run record). */
  intake: BenchWorkflow;
  /** Target of the automation scenario: Open = set_attributes + set_status Triage, Triage = close. */
  automation: BenchWorkflow;
}

function definition(name: string, automations: Record<string, unknown[]>) {
  return { name, case_source: 'direct', sensitive_data: false, statuses: ['Triage'], default_outcome: 'Done', attributes: BENCH_ATTRIBUTES, automations };
}

/** The HTTP scenarios' target: typed attributes and an Open run, so every intake also writes the pending run record. */
export const intakeDefinition = (name: string) => definition(name, { Open: [{ set_attributes: { stage: 'received' } }] });

/** A workflow created and published; its id. */
export async function publishWorkflow(base: string, adminToken: string, def: unknown): Promise<number> {
  const created = await call(base, 'POST', '/api/admin/v1/workflows', adminToken, def);
  const id: number = created.workflow.id;
  await call(base, 'POST', `/api/admin/v1/workflows/${id}/publish`, adminToken);
  return id;
}

export async function publishedWorkflow(base: string, adminToken: string, def: unknown): Promise<BenchWorkflow> {
  const id = await publishWorkflow(base, adminToken, def);
  const webhook = await call(base, 'POST', `/api/admin/v1/workflows/${id}/webhook`, adminToken);
  const url = new URL(webhook.webhook.url);
  return { id, webhookPath: url.pathname + url.search, casesPath: `/api/external/v1/workflows/${id}/cases` };
}

/** An organization (through the operator API) with its admin token and an API token. */
export async function createOrganization(base: string, operatorToken: string, name: string): Promise<{ organizationId: number; adminToken: string; apiToken: string }> {
  const org = await call(base, 'POST', '/api/operator/v1/organizations', operatorToken, { name });
  const adminToken: string = org.admin_token;
  const token = await call(base, 'POST', '/api/admin/v1/tokens', adminToken, { name: 'bench', scope: 'api' });
  return { organizationId: org.organization.id, adminToken, apiToken: token.secret };
}

export async function createFixtures(base: string, operatorToken: string): Promise<Fixtures> {
  const { organizationId, adminToken, apiToken } = await createOrganization(base, operatorToken, 'Benchmark organization');
  const intake = await publishedWorkflow(base, adminToken, intakeDefinition('Bench intake'));
  const automation = await publishedWorkflow(
    base,
    adminToken,
    definition('Bench automation', {
      Open: [{ set_attributes: { stage: 'triaged' } }, { set_status: 'Triage' }],
      Triage: [{ close: { outcome: 'Done' } }],
    }),
  );
  return { organizationId, adminToken, apiToken, intake, automation };
}
