import type { EntityManager } from 'typeorm';
import type { Env } from '../config/env.js';
import { OrganizationCapReachedError } from '../errors/app-error.js';
import type { Transaction } from './transaction.js';
import { entityManager } from './typeorm-transaction-runner.js';

type CapSetting = 'MAX_SUBSCRIPTIONS_PER_ORGANIZATION' | 'MAX_WORKFLOWS_PER_ORGANIZATION' | 'MAX_SECRETS_PER_ORGANIZATION' | 'MAX_TOKENS_PER_ORGANIZATION' | 'MAX_DIGESTS_PER_ORGANIZATION' | 'MAX_USERS_PER_ORGANIZATION';

/** Something an organization holds at most `setting` of: its rows of `table` that `live` (SQL, when given) selects. */
export interface OrganizationCap {
  readonly what: string;
  readonly table: string;
  readonly live?: string;
  readonly setting: CapSetting;
}

/**
 * Stores what `cap` counts: `store` runs in `tx` (the caller's, which may also record the change)
 * holding the organization's cap lock
 * (an advisory lock on the organization's id: the organizations table is its module's own), so
 * an organization's creations are counted one after the other while nothing else waits, and is
 * undone when the count is then past the cap. Counted after the store, so one that replaces a
 * row (an upsert) passes at the cap.
 */
export async function storeWithinCap<T>(tx: Transaction, limits: Pick<Env, CapSetting>, organizationId: number, cap: OrganizationCap, store: (manager: EntityManager) => Promise<T>): Promise<T> {
  const limit = limits[cap.setting];
  const m = entityManager(tx);
  await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('organization-cap:' || $1::text, 0))`, [organizationId]);
  const stored = await store(m);
  const [counted] = (await m.query(`SELECT count(*)::int AS n FROM ${cap.table} WHERE organization_id = $1${cap.live ? ` AND ${cap.live}` : ''}`, [organizationId])) as { n: number }[];
  if (counted!.n > limit) throw new OrganizationCapReachedError(cap.what, cap.setting, limit);
  return stored;
}
