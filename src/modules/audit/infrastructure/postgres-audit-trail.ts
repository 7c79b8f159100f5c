import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { AuditTrail } from '../application/audit-trail.js';
import type { AuditedChange } from '../domain/audit-entry.js';

/** One row of `audit_entries` per change, on the change's own transaction. */
@Injectable()
export class PostgresAuditTrail extends AuditTrail {
  async record(tx: Transaction, change: AuditedChange): Promise<void> {
    const { actor, address } = change.by;
    await entityManager(tx).query(
      `INSERT INTO audit_entries (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, address, summary)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [change.organizationId, actor.type, actor.id, actor.name, change.action, change.target.type, change.target.id, address, JSON.stringify(change.summary ?? {})],
    );
  }
}
