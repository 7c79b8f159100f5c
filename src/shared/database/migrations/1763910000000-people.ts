import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An organization's people (users with a role), their sessions and their one-time sign-in
 * links. Sessions and links are found by the SHA-256 of their random secret, which is never
 * stored; they go with their user.
 */
export class People1763910000000 implements MigrationInterface {
  name = 'People1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        organization_id bigint NOT NULL REFERENCES organizations (id),
        id              bigint GENERATED ALWAYS AS IDENTITY,
        email           text NOT NULL,
        role            text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
        status          text NOT NULL CHECK (status IN ('invited', 'active')),
        created_at      timestamptz NOT NULL DEFAULT now(),
        last_seen_at    timestamptz,
        PRIMARY KEY (organization_id, id),
        UNIQUE (id)
      );
      CREATE UNIQUE INDEX users_email ON users (organization_id, lower(email));
      CREATE INDEX users_by_email ON users (lower(email));

      CREATE TABLE sessions (
        organization_id bigint NOT NULL,
        id_hash         bytea NOT NULL UNIQUE,
        user_id         bigint NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        last_seen_at    timestamptz NOT NULL DEFAULT now(),
        expires_at      timestamptz NOT NULL,
        PRIMARY KEY (organization_id, user_id, id_hash),
        FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
      );

      CREATE TABLE sign_in_links (
        organization_id bigint NOT NULL,
        token_hash      bytea NOT NULL UNIQUE,
        user_id         bigint NOT NULL,
        expires_at      timestamptz NOT NULL,
        used_at         timestamptz,
        PRIMARY KEY (organization_id, user_id, token_hash),
        FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sign_in_links, sessions, users');
  }
}
