import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Report digests (spec/reporting.md): an organization's schedules, its recipients, and one row
 * per period a digest is sent for. The unique key of `digest_sends` is what makes a period go
 * out once across any number of workers: a worker sends only the periods whose row it inserted
 * (or whose claim lapsed, the worker that held it having died). Manual sends are rows of their
 * own, outside that key.
 *
 * A recipient is an address of the organization's that must confirm before it gets any digest
 * (one confirmation mail, asked again at most once a week) and can unsubscribe from every
 * digest of the organization; its token (the secret of its confirm and unsubscribe URLs) is
 * stored as SHA-256 to find it and sealed to put it into each digest sent.
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
        last_sent_at    timestamptz, -- when a send of it last reached a recipient
        last_failed_at  timestamptz, -- when a send of it was last given up
        last_error      text,        -- and why (the relay's answer, never its URL)
        manual_send_at  timestamptz, -- the last manual send asked for: the next waits 10 minutes
        CHECK ((schedule = 'weekly') = (weekday IS NOT NULL))
      );
      CREATE INDEX digests_organization ON digests (organization_id, id);

      CREATE TABLE digest_recipients (
        id                    bigserial PRIMARY KEY,
        organization_id       bigint NOT NULL REFERENCES organizations (id),
        address               text NOT NULL,
        token_hash            bytea NOT NULL UNIQUE,
        token_ciphertext      text NOT NULL,
        confirmed_at          timestamptz,
        unsubscribed_at       timestamptz,
        invited_at            timestamptz NOT NULL DEFAULT now(),
        invitation_state      text NOT NULL DEFAULT 'pending' CHECK (invitation_state IN ('pending', 'sent', 'failed')),
        invitation_claimed_at timestamptz,
        invitation_attempts   integer NOT NULL DEFAULT 0,
        invitation_error      text
      );
      CREATE UNIQUE INDEX digest_recipients_address ON digest_recipients (organization_id, lower(address));
      CREATE INDEX digest_recipients_invitations ON digest_recipients (id) WHERE invitation_state = 'pending';

      CREATE TABLE digest_sends (
        id           bigserial PRIMARY KEY,
        digest_id    bigint NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
        kind         text NOT NULL CHECK (kind IN ('scheduled', 'manual')),
        period_start timestamptz NOT NULL,
        period_end   timestamptz NOT NULL,
        -- skipped: the period ended while no recipient had confirmed
        state        text NOT NULL DEFAULT 'sending' CHECK (state IN ('sending', 'sent', 'skipped', 'failed')),
        claimed_at   timestamptz DEFAULT now(), -- null: a manual send no worker took yet
        attempts     integer NOT NULL DEFAULT 1,
        delivered_to bigint[] NOT NULL DEFAULT '{}', -- the recipients the relay took it for, not sent again on a retry
        last_error   text,
        sent_at      timestamptz
      );
      CREATE UNIQUE INDEX digest_sends_period ON digest_sends (digest_id, period_end) WHERE kind = 'scheduled';
      CREATE INDEX digest_sends_unsent ON digest_sends (claimed_at) WHERE state = 'sending';
      CREATE INDEX digest_sends_manual ON digest_sends (digest_id) WHERE kind = 'manual' AND state = 'sending';
      CREATE INDEX digest_sends_done ON digest_sends (period_end) WHERE state <> 'sending';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE digest_sends, digest_recipients, digests');
  }
}
