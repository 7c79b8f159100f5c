import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified senders (integrations.md §2): a workflow's webhook may require a signature. The
 * setting belongs to the workflow, not to a version or a token, so publishing and token
 * rotation leave it alone; its secret is sealed like webhook tokens, never stored plain.
 */
export class WebhookVerifications1763820000000 implements MigrationInterface {
  name = 'WebhookVerifications1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_verifications (
        workflow_id       bigint PRIMARY KEY REFERENCES workflows (id),
        scheme            text NOT NULL CHECK (scheme IN ('github', 'stripe', 'slack', 'standard_webhooks', 'hmac')),
        options           jsonb NOT NULL,
        secret_ciphertext text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_verifications');
  }
}
