import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams of an organization's people (casework.md, section 2), names unique per organization
 * (case-insensitively, as people read them). A member row keeps when its member was last given
 * a case by an `assign` step: `round_robin` takes the member waiting longest, `balanced` breaks
 * its ties with it.
 */
export class Teams1764300100000 implements MigrationInterface {
  name = 'Teams1764300100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE teams (
        organization_id bigint NOT NULL REFERENCES organizations (id),
        id              bigint GENERATED ALWAYS AS IDENTITY,
        name            text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id),
        UNIQUE (id)
      );
      CREATE UNIQUE INDEX teams_name ON teams (organization_id, lower(name));

      CREATE TABLE team_members (
        organization_id  bigint NOT NULL,
        team_id          bigint NOT NULL,
        user_id          bigint NOT NULL,
        last_assigned_at timestamptz,
        PRIMARY KEY (organization_id, team_id, user_id),
        FOREIGN KEY (organization_id, team_id) REFERENCES teams (organization_id, id) ON DELETE CASCADE,
        FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX team_members_by_user ON team_members (organization_id, user_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE team_members, teams');
  }
}
