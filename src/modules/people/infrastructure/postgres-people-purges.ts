import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { purgeStatement } from '../../../shared/database/purge-sql.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';
import { ENDED_SIGN_INS_KEPT_MS, PeoplePurges } from '../application/people-purges.js';

/**
 * $1 limit, $2 ENDED_SIGN_INS_KEPT_MS, $3 SESSION_IDLE_TIMEOUT_MS. A session ends when it expires
 * or when it was idle too long, whichever comes first; each has its index (`sessions_expiry`,
 * `sessions_last_seen`), so the OR is two index ranges, not a scan of the table.
 */
const PURGE_SESSIONS = statement(
  `
  WITH doomed AS (
    SELECT id_hash FROM sessions
    WHERE expires_at < now() - $2::float8 * interval '1 millisecond'
       OR last_seen_at < now() - ($2::float8 + $3::float8) * interval '1 millisecond'
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM sessions s USING doomed WHERE s.id_hash = doomed.id_hash RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int AS purged`,
  { purged: column.int4 },
);

/**
 * $1 limit, $2 ENDED_SIGN_INS_KEPT_MS. A link ends when used or when it expires, whichever comes
 * first (it is used only while valid), read oldest first through `sign_in_links_ended`.
 */
const PURGE_SIGN_IN_LINKS = statement(
  `
  WITH doomed AS (
    SELECT token_hash FROM sign_in_links
    WHERE coalesce(used_at, expires_at) < now() - $2::float8 * interval '1 millisecond'
    ORDER BY coalesce(used_at, expires_at) LIMIT $1
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM sign_in_links l USING doomed WHERE l.token_hash = doomed.token_hash RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int AS purged`,
  { purged: column.int4 },
);

@Injectable()
export class PostgresPeoplePurges extends PeoplePurges {
  constructor(private readonly transactions: TransactionRunner, private readonly env: Env) {
    super();
  }

  async purgeEndedSessions(limit: number): Promise<number> {
    const [row] = await purgeStatement(this.transactions, PURGE_SESSIONS, [limit, ENDED_SIGN_INS_KEPT_MS, this.env.SESSION_IDLE_TIMEOUT_MS]);
    return row!.purged;
  }

  async purgeSpentSignInLinks(limit: number): Promise<number> {
    const [row] = await purgeStatement(this.transactions, PURGE_SIGN_IN_LINKS, [limit, ENDED_SIGN_INS_KEPT_MS]);
    return row!.purged;
  }
}
