import { Injectable } from '@nestjs/common';
import { purgeStatement } from '../../../shared/database/purge-sql.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';
import { SlaTimerPurges } from '../../retention/application/retention.ports.js';
import { FIRED_SLA_TIMERS_KEPT_MS } from '../application/sla-timer-purges.js';

/**
 * $1 limit, $2 FIRED_SLA_TIMERS_KEPT_MS. Read oldest first through `sla_timers_fired`. A timer
 * fires no earlier than its time, so one fired that long ago has a time older than the
 * sweep's horizon too, and is never wanted again.
 */
const PURGE_FIRED_TIMERS = statement(
  `
  WITH doomed AS (
    SELECT organization_id, case_id, clock, kind, period_started_at FROM sla_timers
    WHERE fired_at IS NOT NULL AND fired_at < now() - $2::float8 * interval '1 millisecond'
    ORDER BY fired_at LIMIT $1
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM sla_timers t USING doomed
    WHERE (t.organization_id, t.case_id, t.clock, t.kind, t.period_started_at) = (doomed.organization_id, doomed.case_id, doomed.clock, doomed.kind, doomed.period_started_at)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int AS purged`,
  { purged: column.int4 },
);

@Injectable()
export class PostgresSlaTimerPurges extends SlaTimerPurges {
  constructor(private readonly transactions: TransactionRunner) {
    super();
  }

  async purgeFiredTimers(limit: number): Promise<number> {
    const [row] = await purgeStatement(this.transactions, PURGE_FIRED_TIMERS, [limit, FIRED_SLA_TIMERS_KEPT_MS]);
    return row!.purged;
  }
}
