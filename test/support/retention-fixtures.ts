import type pg from 'pg';
import { UsageService } from '../../src/modules/cases/application/usage.service.js';
import { CreateCaseService } from '../../src/modules/cases/application/create-case.service.js';
import { PurgePass } from '../../src/modules/retention/application/purge-pass.service.js';
import { RetentionOverridesStore, RetentionPurges } from '../../src/modules/retention/application/retention.ports.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import type { RetentionOverrides } from '../../src/modules/retention/domain/retention.js';
import { RetentionMetrics } from '../../src/modules/retention/infrastructure/retention.metrics.js';
import { LOGGER } from '../../src/shared/logging/logger.js';
import { createMetricsRegistry, type MetricsRegistry } from '../../src/shared/metrics/metrics.module.js';
import { type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from './automation-helpers.js';
import { type IntegrationContext, startIntegrationContext } from './integration-context.js';
import { givenOrganization, givenPublishedWorkflow } from './integration-scenario.js';
import { sampleDefinition } from './scenario.js';

/**
 * The integration tier's retention set-up: a context on a database of its own (every worker of
 * the test run purges the shared database with the default retention), the purge pass as the
 * worker role wires it, and SQL to age rows, since a purge is about time.
 */
export interface RetentionContext {
  ctx: IntegrationContext;
  pool: pg.Pool;
  /** A purge pass with its own metrics registry. */
  pass(): { pass: PurgePass; registry: MetricsRegistry };
  setOverrides(organizationId: number, overrides: Partial<RetentionOverrides>): Promise<void>;
  usage(organizationId: number, from: Date, to: Date): ReturnType<UsageService['report']>;
  close(): Promise<void>;
}

export async function startRetentionContext(): Promise<RetentionContext> {
  const database: IsolatedDatabase = await isolatedDatabase();
  const ctx = await startIntegrationContext({
    env: { DATABASE_URL: database.url, REDIS_PREFIX: isolatedRedisPrefix(), RETENTION_RUNS_DAYS: '30', RETENTION_DELIVERIES_DAYS: '30', RETENTION_CLOSED_CASES_DAYS: '0' },
  }).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  return {
    ctx,
    pool: database.pool,
    pass: () => {
      const registry = createMetricsRegistry();
      const purges = ctx.get(RetentionPurges);
      return { pass: new PurgePass(purges, new RetentionMetrics(registry), ctx.env, ctx.get(LOGGER)), registry };
    },
    setOverrides: (organizationId, overrides) =>
      ctx.get(TransactionRunner).run((tx) => ctx.get(RetentionOverridesStore).replace(tx, organizationId, { runsDays: null, deliveriesDays: null, closedCasesDays: null, auditDays: null, ...overrides })),
    usage: (organizationId, from, to) => ctx.get(UsageService).report(organizationId, from, to),
    close: async () => {
      await ctx.close();
      await database.drop();
    },
  };
}

export interface RetentionWorkflow {
  organizationId: number;
  workflowId: number;
  /** Creates a case (Open, its run pending; with a delivery per subscription when live). */
  createCase(mode?: 'live' | 'test'): Promise<number>;
}

/** A published workflow whose Open status runs an automation (every case gets a run), in a new organization unless one is given. */
export async function givenRetentionWorkflow(r: RetentionContext, organizationId?: number): Promise<RetentionWorkflow> {
  const orgId = organizationId ?? (await givenOrganization(r.ctx)).id;
  const version = await givenPublishedWorkflow(r.ctx, orgId, sampleDefinition({ automations: { Open: [{ wait: { seconds: 60 } }] } }));
  return {
    organizationId: orgId,
    workflowId: version.workflowId,
    createCase: async (mode = 'live') => {
      const attributes = { customer_email: 'ada@example.com' };
      const { id } = await r.ctx.get(CreateCaseService).execute({
        source: 'API',
        organizationId: orgId,
        workflow: version,
        mode,
        attributes: { value: attributes, text: JSON.stringify(attributes) },
        actor: { kind: 'api_token', tokenId: 1 },
        answer: 'id',
      });
      return id;
    },
  };
}

/** A subscription to every case event of the organization, so that new live cases get deliveries. */
export async function givenSubscription(r: RetentionContext, organizationId: number): Promise<number> {
  const { rows } = await r.pool.query<{ id: string }>(
    `INSERT INTO subscriptions (organization_id, url, events, secret_ciphertext)
     VALUES ($1, 'https://receiver.example/hook', ARRAY['case.created', 'case.status_changed', 'case.closed'], 'unused: never sent here')
     RETURNING id`,
    [organizationId],
  );
  return Number(rows[0]!.id);
}

/** SQL for `now() - <age>`: the age in (fractional) days (a number or a parameter), or a Postgres interval such as '24 hours'. */
export const ago = (age: number | string) => (typeof age === 'number' || age.startsWith('$') ? `now() - (${age}) * interval '1 day'` : `now() - interval '${age}'`);

/** A day less or more one minute: just under and just over a limit of `days`. */
export const justUnder = (days: number) => days - 1 / 1440;
export const justOver = (days: number) => days + 1 / 1440;

/** Sets the case's (only) run to `state`, created 1 day before `finishedDaysAgo` and finished then (null: unfinished). */
export async function ageRun(r: RetentionContext, caseId: number, state: string, finishedDaysAgo: number): Promise<number> {
  const unfinished = ['pending', 'running', 'waiting'].includes(state);
  const { rows } = await r.pool.query<{ id: string }>(
    `UPDATE workflow_runs SET state = $2, created_at = ${ago('$3::float8 + 1')}, finished_at = CASE WHEN $4 THEN NULL ELSE ${ago('$3::float8')} END
     WHERE case_id = $1 RETURNING id`,
    [caseId, state, finishedDaysAgo, unfinished],
  );
  return Number(rows[0]!.id);
}

/** Sets the case's deliveries to `state`, created 2 days before `endedDaysAgo` and ended then (pending: not ended). */
export async function ageDeliveries(r: RetentionContext, caseId: number, state: 'pending' | 'delivered' | 'failed', endedDaysAgo: number): Promise<number[]> {
  const { rows } = await r.pool.query<{ id: string }>(
    `UPDATE event_deliveries SET state = $2, attempts = 1, created_at = ${ago('$3::float8 + 2')},
       finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE ${ago('$3::float8')} END
     WHERE case_id = $1 RETURNING id`,
    [caseId, state, endedDaysAgo],
  );
  await r.pool.query(
    `INSERT INTO delivery_attempts (delivery_id, attempt, status_code, delivered) SELECT id, 1, 200, state = 'delivered' FROM event_deliveries WHERE case_id = $1`,
    [caseId],
  );
  await r.pool.query(`UPDATE outbox_events SET created_at = ${ago('$2::float8 + 2')} WHERE case_id = $1`, [caseId, endedDaysAgo]);
  return rows.map((row) => Number(row.id));
}

/** Moves the case to `status` (its run finished long ago unless `keepRun`), created a day before `changedDaysAgo` and last changed then. */
export async function ageCase(r: RetentionContext, caseId: number, status: string, changedDaysAgo: number, options: { keepRun?: boolean } = {}): Promise<void> {
  await r.pool.query(
    `UPDATE cases SET status = $2, created_at = ${ago('$3::float8 + 1')}, updated_at = ${ago('$3::float8')} WHERE id = $1`,
    [caseId, status, changedDaysAgo],
  );
  await r.pool.query(`UPDATE case_events SET created_at = ${ago('$2::float8 + 1')} WHERE case_id = $1`, [caseId, changedDaysAgo]);
  if (!options.keepRun) await ageRun(r, caseId, 'succeeded', changedDaysAgo);
}

export async function exists(r: RetentionContext, table: string, column: string, id: number): Promise<boolean> {
  const { rows } = await r.pool.query(`SELECT 1 FROM ${table} WHERE ${column} = $1 LIMIT 1`, [id]);
  return rows.length > 0;
}

/** `purged_rows_total` by kind, as the registry shows it. */
export async function purgedRowsMetric(registry: MetricsRegistry): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'purged_rows_total');
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.kind), v.value]));
}
