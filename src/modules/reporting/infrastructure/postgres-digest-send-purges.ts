import { Injectable } from '@nestjs/common';
import { purgeStatement } from '../../../shared/database/purge-sql.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';
import { DigestSendPurges, type PurgeBatch } from '../../retention/application/retention.ports.js';
import { DIGEST_SENDS_KEPT_MS } from '../domain/digest.js';

/**
 * $1 limit. Digest sends done with, whose period ended more than DIGEST_SENDS_KEPT_MS ago: the
 * scheduler never claims a period that old again, so none is sent twice for lack of its row
 * (manual sends too, by their period's end). Read oldest first through the partial index of
 * sends done with.
 */
const PURGE_DIGEST_SENDS = statement(
  `
  WITH doomed AS (
    SELECT id FROM digest_sends
    WHERE state <> 'sending' AND period_end < now() - ${DIGEST_SENDS_KEPT_MS} * interval '1 millisecond'
    ORDER BY period_end LIMIT $1
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM digest_sends s USING doomed WHERE s.id = doomed.id RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int AS purged`,
  { purged: column.int4 },
);

/** Old digest sends, as the retention purge asks. */
@Injectable()
export class PostgresDigestSendPurges extends DigestSendPurges {
  constructor(private readonly transactions: TransactionRunner) {
    super();
  }

  async purgeDigestSends(limit: number): Promise<PurgeBatch<number>> {
    const [row] = await purgeStatement(this.transactions, PURGE_DIGEST_SENDS, [limit]);
    return { purged: { digest_sends: row!.purged }, next: row!.purged === limit ? 0 : null };
  }
}
