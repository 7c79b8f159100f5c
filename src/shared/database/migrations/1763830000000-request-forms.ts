import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hosted request form of ticketing workflows: each has a secret form URL, whose secret is
 * stored as SHA-256 (to find the workflow of a posted form) and sealed (to show the URL again),
 * never in plain text, as an email workflow's inbound address is.
 */
export class RequestForms1763830000000 implements MigrationInterface {
  name = 'RequestForms1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflow_forms (
        workflow_id       bigint PRIMARY KEY REFERENCES workflows (id),
        secret_hash       bytea NOT NULL UNIQUE,
        secret_ciphertext text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        rotated_at        timestamptz
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE workflow_forms');
  }
}
