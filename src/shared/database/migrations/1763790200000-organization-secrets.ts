import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Organization secrets for `{{ secrets.NAME }}` in http_request steps; values are stored sealed (AES-256-GCM). */
export class OrganizationSecrets1763790200000 implements MigrationInterface {
  name = 'OrganizationSecrets1763790200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organization_secrets (
        organization_id  bigint NOT NULL REFERENCES organizations (id),
        name             text NOT NULL CHECK (name ~ '^[A-Z][A-Z0-9_]{0,63}$'),
        value_ciphertext text NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, name)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE organization_secrets');
  }
}
