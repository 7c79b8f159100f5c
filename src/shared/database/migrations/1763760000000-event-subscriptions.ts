import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EventSubscriptions1763760000000 implements MigrationInterface {
  name = 'EventSubscriptions1763760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- Outbound webhook subscriptions; the signing secret is stored sealed (AES-256-GCM).
      CREATE TABLE subscriptions (
        id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id   bigint NOT NULL REFERENCES organizations (id),
        url               text NOT NULL,
        events            text[] NOT NULL,
        workflow_ids      bigint[],
        secret_ciphertext text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        failing_since     timestamptz,
        disabled_at       timestamptz,
        disabled_reason   text,
        deleted_at        timestamptz
      );
      CREATE INDEX subscriptions_active ON subscriptions (organization_id) WHERE disabled_at IS NULL AND deleted_at IS NULL;

      -- The outbox: lifecycle events of live cases, written in the transaction of the change
      -- that caused them, only when some subscription of the organization wants them.
      CREATE TABLE outbox_events (
        id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        public_id       uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        organization_id bigint NOT NULL,
        workflow_id     bigint NOT NULL,
        case_id         bigint NOT NULL REFERENCES cases (id),
        type            text NOT NULL,
        payload         jsonb NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now()
      );

      -- One delivery per event and subscription. Deliveries of one case to one subscription
      -- go out in event order: a delivery waits while an earlier one is still pending.
      CREATE TABLE event_deliveries (
        id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id        bigint NOT NULL REFERENCES outbox_events (id),
        subscription_id bigint NOT NULL REFERENCES subscriptions (id),
        case_id         bigint NOT NULL,
        state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at     timestamptz,
        locked_until    timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        finished_at     timestamptz
      );
      CREATE INDEX event_deliveries_pending ON event_deliveries (next_attempt_at, id) WHERE state = 'pending';
      CREATE INDEX event_deliveries_order ON event_deliveries (subscription_id, case_id, id) WHERE state = 'pending';
      CREATE INDEX event_deliveries_subscription ON event_deliveries (subscription_id, id);

      -- Every attempt, for the deliveries log.
      CREATE TABLE delivery_attempts (
        id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id  bigint NOT NULL REFERENCES event_deliveries (id),
        attempt      integer NOT NULL,
        status_code  integer,
        error        text,
        delivered    boolean NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (delivery_id, attempt)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE delivery_attempts, event_deliveries, outbox_events, subscriptions`);
  }
}
