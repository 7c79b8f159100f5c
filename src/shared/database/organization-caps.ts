import type { EntityManager } from 'typeorm';
import type { Env } from '../config/env.js';
import { OrganizationCapReachedError } from '../errors/app-error.js';
import type { Transaction } from './transaction.js';
import { firstRowOf, statement } from './persistence.js';
import { runStatement } from './run-statement.js';
import { column, type Statement } from './typed-statement.js';
import { entityManager } from './typeorm-transaction-runner.js';

type CapSetting = 'MAX_SUBSCRIPTIONS_PER_ORGANIZATION' | 'MAX_WORKFLOWS_PER_ORGANIZATION' | 'MAX_SECRETS_PER_ORGANIZATION' | 'MAX_TOKENS_PER_ORGANIZATION' | 'MAX_DIGESTS_PER_ORGANIZATION' | 'MAX_USERS_PER_ORGANIZATION';

/** The organization's cap lock: the organizations table is its module's own. */
const LOCK_CAP = statement(`SELECT pg_advisory_xact_lock(hashtextextended('organization-cap:' || $1::text, 0))`, { pg_advisory_xact_lock: column.void });

/** What a cap's count answers. */
export const CAP_COUNT = { n: column.int4 };

/** The text counting the organization's ($1) rows of `table` that `live` (SQL, when given) selects, for the table's owner to declare. */
export const capCountSql = (table: string, live?: string): string => `SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1${live ? ` AND ${live}` : ''}`;

/**
 * Something an organization holds at most `setting` of, as `count` counts it: a statement the
 * module owning the rows declares (`statement(capCountSql(...), CAP_COUNT)`), so the schema
 * check sees it over that module's own table.
 */
export interface OrganizationCap {
  readonly what: string;
  readonly count: Statement<{ n: number }>;
  readonly setting: CapSetting;
}

/**
 * Stores what `cap` counts: `store` runs in `tx` (the caller's, which may also record the change)
 * holding the organization's cap lock (an advisory lock on the organization's id), so an
 * organization's creations are counted one after the other while nothing else waits, and is
 * undone when the count is then past the cap. Counted after the store, so one that replaces a
 * row (an upsert) passes at the cap.
 */
export async function storeWithinCap<T>(tx: Transaction, limits: Pick<Env, CapSetting>, organizationId: number, cap: OrganizationCap, store: (manager: EntityManager) => Promise<T>): Promise<T> {
  const limit = limits[cap.setting];
  const m = entityManager(tx);
  await firstRowOf(m, LOCK_CAP, [organizationId]);
  const stored = await store(m);
  const [counted] = await runStatement(m, cap.count, [organizationId]);
  if (counted!.n > limit) throw new OrganizationCapReachedError(cap.what, cap.setting, limit);
  return stored;
}
