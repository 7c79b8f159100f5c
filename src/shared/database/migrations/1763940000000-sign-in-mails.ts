import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in and invitation mails waiting for the worker: written in the transaction that asks for
 * them, deleted once sent or given up. A row holds no link: the worker issues it when it mails
 * it. `enqueued_at` and `locked_until` are the relay's hand-over and the sender's lease (as for
 * event deliveries); the partial index finds what is due without scanning what waits.
 */
export class SignInMails1763940000000 implements MigrationInterface {
  name = 'SignInMails1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sign_in_mails (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        user_id         bigint NOT NULL,
        kind            text NOT NULL CHECK (kind IN ('invitation', 'sign_in')),
        attempts        integer NOT NULL DEFAULT 0,
        created_at      timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at     timestamptz,
        locked_until    timestamptz,
        PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX sign_in_mails_due ON sign_in_mails (next_attempt_at, id) WHERE enqueued_at IS NULL;
      CREATE INDEX sign_in_mails_handed_over ON sign_in_mails (enqueued_at) WHERE enqueued_at IS NOT NULL;
      CREATE INDEX sign_in_mails_user ON sign_in_mails (organization_id, user_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sign_in_mails');
  }
}
