import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CaseEventCase, CaseEventType } from '../../../extension-api/case-events.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { type ClaimedHandling, type HandlingRef, ListenerHandlings } from '../domain/listener-handlings.js';
import { relayTakes } from '../../../shared/database/relay-sql.js';

/** The handling ($1, $2) as the attempt ($3) that claimed it left it. */
const THIS_ATTEMPT = `organization_id = $1 AND id = $2 AND attempts = $3 AND state = 'pending'`;

const REGISTER = statement(
  `INSERT INTO case_event_listeners (listener, events)
   SELECT l.name, ARRAY(SELECT jsonb_array_elements_text(l.events)) FROM jsonb_to_recordset($1::jsonb) AS l(name text, events jsonb)
   ON CONFLICT (listener) DO UPDATE SET events = EXCLUDED.events`,
);
/** Due handlings of the listeners $2 meeting `condition`, up to $1, handed to the queue; `condition` may use $3 (a grace in ms). */
const takeHandlings = (condition: string) =>
  statement(
    `WITH taken AS (
       UPDATE case_event_handlings SET enqueued_at = now()
       WHERE (organization_id, id) IN (
         SELECT h.organization_id, h.id FROM case_event_handlings h
         WHERE h.state = 'pending' AND h.listener = ANY ($2::text[]) AND ${condition}
           AND NOT EXISTS (SELECT 1 FROM case_event_handlings e
                           WHERE e.organization_id = h.organization_id AND e.case_id = h.case_id AND e.listener = h.listener
                             AND e.state = 'pending' AND e.id < h.id)
         ORDER BY h.id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING organization_id, id
     ) SELECT * FROM taken ORDER BY id`,
    { organization_id: column.int8, id: column.int8 },
  );
const TAKE = relayTakes('h', '$3', takeHandlings);
const UNTAKE = statement(
  `UPDATE case_event_handlings h SET enqueued_at = NULL
   FROM unnest($1::bigint[], $2::bigint[]) AS r(organization_id, id) WHERE h.organization_id = r.organization_id AND h.id = r.id`,
);
const CLAIM = statement(
  `WITH claimed AS (
     UPDATE case_event_handlings SET attempts = attempts + 1, locked_until = now() + $3 * interval '1 millisecond'
     WHERE organization_id = $1 AND id = $2 AND state = 'pending' AND listener = ANY ($4::text[])
       AND (locked_until IS NULL OR locked_until < now())
     RETURNING organization_id, id, listener, case_id, workflow_id, type, status_from, payload, occurred_at, attempts
   ) SELECT * FROM claimed`,
  {
    organization_id: column.int8,
    id: column.int8,
    listener: column.text,
    case_id: column.int8,
    workflow_id: column.int8,
    type: column.textOf<CaseEventType>(),
    status_from: column.nullable(column.text),
    payload: column.jsonb<CaseEventCase>(),
    occurred_at: column.timestamptz,
    attempts: column.int4,
  },
);
const RENEW_LEASE = statement(
  `UPDATE case_event_handlings SET locked_until = now() + $4 * interval '1 millisecond'
   WHERE organization_id = $1 AND id = $2 AND attempts = $3 AND state = 'pending' AND locked_until IS NOT NULL`,
);
const RECORD_HANDLED = statement(`DELETE FROM case_event_handlings WHERE ${THIS_ATTEMPT}`);
const RECORD_FAILURE = statement(
  `UPDATE case_event_handlings
   SET last_error = $4, state = CASE WHEN $5 THEN 'failed' ELSE 'pending' END, finished_at = CASE WHEN $5 THEN now() END, locked_until = NULL
   WHERE ${THIS_ATTEMPT}`,
);

/**
 * `case_event_listeners` and `case_event_handlings`. A handling is due when no earlier handling
 * of the same case for the same listener is still pending: that is how a case's events reach a
 * listener in order. Relays and workers only take rows of the listeners their process runs, so
 * a process started without an extension leaves that extension's events alone.
 */
@Injectable()
export class ListenerHandlingRepository extends ListenerHandlings {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  /** From now on, changes record an event for each listener that wants its type. */
  async register(listeners: readonly { name: string; events: readonly string[] }[]): Promise<void> {
    if (!listeners.length) return;
    await rowsOf(this.dataSource, REGISTER, [JSON.stringify(listeners)]);
  }

  takeNew(limit: number, listeners: readonly string[]): Promise<HandlingRef[]> {
    return this.take(TAKE.new, limit, listeners);
  }

  /** Handlings whose worker's lease ran out (it died mid-handle) and that were not handed to the queue since. */
  takeExpired(limit: number, listeners: readonly string[]): Promise<HandlingRef[]> {
    return this.take(TAKE.expired, limit, listeners);
  }

  /**
   * Handlings handed to the queue more than `graceMs` ago and not held now: their job was lost,
   * or it waits out a backoff and Bull ignores the add.
   */
  takeStale(limit: number, listeners: readonly string[], graceMs: number): Promise<HandlingRef[]> {
    return this.take(TAKE.stale, limit, listeners, graceMs);
  }

  /** `graceMs` is $3 when the statement uses it (an unused parameter has no type Postgres can infer). */
  private async take(taking: typeof TAKE.new, limit: number, listeners: readonly string[], graceMs?: number): Promise<HandlingRef[]> {
    if (!listeners.length) return [];
    const rows = await rowsOf(this.dataSource, taking, graceMs === undefined ? [limit, listeners] : [limit, listeners, graceMs]);
    return rows.map((r) => ({ organizationId: Number(r.organization_id), id: Number(r.id) }));
  }

  async untake(refs: HandlingRef[]): Promise<void> {
    await rowsOf(this.dataSource, UNTAKE, [refs.map((r) => r.organizationId), refs.map((r) => r.id)]);
  }

  async claim(ref: HandlingRef, leaseMs: number, listeners: readonly string[]): Promise<ClaimedHandling | null> {
    const claimed = await firstRowOf(this.dataSource, CLAIM, [ref.organizationId, ref.id, leaseMs, listeners]);
    if (!claimed) return null;
    return {
      organizationId: Number(claimed.organization_id),
      id: Number(claimed.id),
      listener: claimed.listener,
      event: {
        id: claimed.id,
        type: claimed.type,
        organization_id: Number(claimed.organization_id),
        workflow_id: Number(claimed.workflow_id),
        case_id: Number(claimed.case_id),
        status: { from: claimed.status_from, to: claimed.payload.status },
        occurred_at: claimed.occurred_at.toISOString(),
        attempt: claimed.attempts,
        case: claimed.payload,
      },
    };
  }

  async renewLease(handling: ClaimedHandling, leaseMs: number): Promise<void> {
    await rowsOf(this.dataSource, RENEW_LEASE, [handling.organizationId, handling.id, handling.event.attempt, leaseMs]);
  }

  /**
   * A handled event's row goes: nothing reads it again, so the table holds only what is still
   * to do and what failed. Unless another worker took it over since (its lease ran out): then
   * that worker's attempt ends it.
   */
  async recordHandled(handling: ClaimedHandling): Promise<void> {
    await rowsOf(this.dataSource, RECORD_HANDLED, [handling.organizationId, handling.id, handling.event.attempt]);
  }

  async recordFailure(handling: ClaimedHandling, error: string, forGood: boolean): Promise<void> {
    await rowsOf(this.dataSource, RECORD_FAILURE, [handling.organizationId, handling.id, handling.event.attempt, error, forGood]);
  }
}
