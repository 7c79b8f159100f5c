import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Opt-in de-duplication of webhook deliveries (workflows-and-automation.md): one row per
 * workflow and delivery key, naming the case the key's first delivery created. The primary key
 * is what makes concurrent duplicates create one case (the intake statement inserts the key
 * and the case together, ON CONFLICT). The key is stored as the SHA-256 of its JSON text: a
 * sender's key may be up to the body's size, and a btree entry may not be. `created_at` is
 * compared with the window of the version in force; the retention purge deletes a key once it
 * is past the longest window (7 days), and with its case. The table churns like the other
 * purged ones, so autovacuum comes in small rounds (see the retention migration).
 */
export class WebhookDedupKeys1763850000000 implements MigrationInterface {
  name = 'WebhookDedupKeys1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_dedup_keys (
        workflow_id bigint NOT NULL,
        key_hash    bytea NOT NULL,
        case_id     bigint NOT NULL REFERENCES cases (id),
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, key_hash)
      );
      CREATE INDEX webhook_dedup_keys_case ON webhook_dedup_keys (case_id);
      ALTER TABLE webhook_dedup_keys SET (autovacuum_vacuum_scale_factor = 0.02);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_dedup_keys');
  }
}
