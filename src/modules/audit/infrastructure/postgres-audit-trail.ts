import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { AuditTrail, REPEATED_EVENT_WINDOW_MS } from '../application/audit-trail.js';
import type { AuditedChange } from '../domain/audit-entry.js';

/** Repeats of one event are counted one after the other, so they share one entry, not one each. */
const LOCK_EVENT = statement(`SELECT pg_advisory_xact_lock(hashtextextended('audit-repeated:' || $1::text, 0))`, { pg_advisory_xact_lock: column.void });
/** The organization's recent entries (by `at`) are few, whatever the log's size. */
const COUNT_REPEAT = statement(
  `UPDATE audit_entries SET summary = jsonb_set(summary, '{count}', to_jsonb((summary->>'count')::bigint + 1))
   WHERE organization_id = $1 AND at > now() - $9 * interval '1 millisecond' AND actor_type = $2 AND actor_id = $3 AND actor_name = $4
     AND action = $5 AND target_type = $6 AND target_id = $7 AND summary ? 'count' AND summary - 'count' = $8::jsonb
   RETURNING true AS counted`,
  { counted: column.bool },
);
const INSERT = statement(
  `INSERT INTO audit_entries (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, address, summary)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
);

/** One row of `audit_entries` per change, on the change's own transaction. */
@Injectable()
export class PostgresAuditTrail extends AuditTrail {
  async record(tx: Transaction, change: AuditedChange): Promise<void> {
    await this.insert(tx, change, change.summary ?? {});
  }

  async recordRepeated(tx: Transaction, change: AuditedChange): Promise<void> {
    const m = entityManager(tx);
    const { actor } = change.by;
    const summary = JSON.stringify(change.summary ?? {});
    const event = [change.organizationId, actor.type, actor.id, actor.name, change.action, change.target.type, change.target.id, summary];
    await rowsOf(m, LOCK_EVENT, [JSON.stringify(event)]);
    const counted = await rowsOf(m, COUNT_REPEAT, [...event, REPEATED_EVENT_WINDOW_MS]);
    if (!counted.length) await this.insert(tx, change, { ...change.summary, count: 1 });
  }

  private async insert(tx: Transaction, change: AuditedChange, summary: Record<string, unknown>): Promise<void> {
    const { actor, address } = change.by;
    await rowsOf(entityManager(tx), INSERT, [change.organizationId, actor.type, actor.id, actor.name, change.action, change.target.type, change.target.id, address, JSON.stringify(summary)]);
  }
}
