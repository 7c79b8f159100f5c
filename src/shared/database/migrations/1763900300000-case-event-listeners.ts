import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Case-event listeners (module case-events). `case_event_listeners` says which events each
 * listener wants, so the statement that stores a change writes one row per event and listener
 * into `case_event_handlings` (that listener's outbox) in the same round trip; it is the
 * service's own registry, not a tenant's data, hence no organization. A handling is pending
 * until its listener handled it (the row is deleted) or it failed its last attempt. Relays take pending rows of the
 * listeners their process runs (`case_event_handlings_due`), a case's rows in order
 * (`case_event_handlings_order`), and those whose worker died (`case_event_handlings_leased`).
 */
export class CaseEventListeners1763900300000 implements MigrationInterface {
  name = 'CaseEventListeners1763900300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE case_event_listeners (
        listener      text PRIMARY KEY,
        events        text[] NOT NULL,
        registered_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE case_event_handlings (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        listener        text NOT NULL,
        case_id         bigint NOT NULL,
        workflow_id     bigint NOT NULL,
        type            text NOT NULL,
        status_from     text,
        payload         jsonb NOT NULL,
        occurred_at     timestamptz NOT NULL DEFAULT now(),
        state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        last_error      text,
        enqueued_at     timestamptz,
        locked_until    timestamptz,
        finished_at     timestamptz,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX case_event_handlings_due ON case_event_handlings (listener, id) WHERE state = 'pending';
      CREATE INDEX case_event_handlings_order ON case_event_handlings (organization_id, case_id, listener, id) WHERE state = 'pending';
      CREATE INDEX case_event_handlings_leased ON case_event_handlings (locked_until) WHERE state = 'pending' AND locked_until IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE case_event_handlings, case_event_listeners`);
  }
}
