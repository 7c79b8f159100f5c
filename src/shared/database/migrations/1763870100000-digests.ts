import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Report digests (spec/reporting.md): an organization's schedules, and one row per period a
 * digest is sent for. The primary key of `digest_sends` is what makes a period go out once
 * across any number of workers: a worker sends only the periods whose row it inserted (or
 * whose claim lapsed, the worker that held it having died). Manual sends are rows of their own,
 * outside that key.
 */
export class Digests1763870100000 implements MigrationInterface {
  name = 'Digests1763870100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE digests (
        id              bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id),
        schedule        text NOT NULL CHECK (schedule IN ('daily', 'weekly')),
        hour_utc        smallint NOT NULL CHECK (hour_utc BETWEEN 0 AND 23),
        weekday         smallint CHECK (weekday BETWEEN 1 AND 7),
        recipients      text[] NOT NULL CHECK (cardinality(recipients) BETWEEN 1 AND 20),
        workflow_ids    bigint[],
        created_at      timestamptz NOT NULL DEFAULT now(),
        CHECK ((schedule = 'weekly') = (weekday IS NOT NULL))
      );
      CREATE INDEX digests_organization ON digests (organization_id, id);

      CREATE TABLE digest_sends (
        id           bigserial PRIMARY KEY,
        digest_id    bigint NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
        kind         text NOT NULL CHECK (kind IN ('scheduled', 'manual')),
        period_start timestamptz NOT NULL,
        period_end   timestamptz NOT NULL,
        state        text NOT NULL DEFAULT 'sending' CHECK (state IN ('sending', 'sent')),
        claimed_at   timestamptz DEFAULT now(), -- null: a manual send no worker took yet
        attempts     integer NOT NULL DEFAULT 1,
        sent_at      timestamptz
      );
      CREATE UNIQUE INDEX digest_sends_period ON digest_sends (digest_id, period_end) WHERE kind = 'scheduled';
      CREATE INDEX digest_sends_unsent ON digest_sends (claimed_at) WHERE state = 'sending';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE digest_sends, digests');
  }
}
