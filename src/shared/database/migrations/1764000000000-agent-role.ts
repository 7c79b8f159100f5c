import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `agent` role, between viewer and editor: the people who work cases (casework.md,
 * section 1). People and single sign-on's default role may hold it.
 */
export class AgentRole1764000000000 implements MigrationInterface {
  name = 'AgentRole1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users DROP CONSTRAINT users_role_check,
        ADD CONSTRAINT users_role_check CHECK (role IN ('owner', 'admin', 'editor', 'agent', 'viewer'));
      ALTER TABLE sso_configurations DROP CONSTRAINT sso_configurations_default_role_check,
        ADD CONSTRAINT sso_configurations_default_role_check CHECK (default_role IN ('admin', 'editor', 'agent', 'viewer'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users DROP CONSTRAINT users_role_check,
        ADD CONSTRAINT users_role_check CHECK (role IN ('owner', 'admin', 'editor', 'viewer'));
      ALTER TABLE sso_configurations DROP CONSTRAINT sso_configurations_default_role_check,
        ADD CONSTRAINT sso_configurations_default_role_check CHECK (default_role IN ('admin', 'editor', 'viewer'));
    `);
  }
}
