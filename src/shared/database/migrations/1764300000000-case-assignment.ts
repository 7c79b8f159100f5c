import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cases gain who works them (casework.md, section 2): a priority, an assignee and a team. Each
 * column comes with a constant default (none for the ids), which Postgres 11 and later add
 * without rewriting the table, and the intake statement names none of them: a new case is
 * unassigned and `normal`. The priority check is added NOT VALID: every existing row holds the
 * default, so there is nothing to scan for, and new rows are checked all the same.
 *
 * The list's filters get partial indexes in the list's order, organization first: an
 * unassigned, team-less `normal` case (what intake writes) adds no entry to any of them. The
 * assignee index also serves `balanced` assignment's count of a member's open cases.
 */
export class CaseAssignment1764300000000 implements MigrationInterface {
  name = 'CaseAssignment1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE cases
        ADD COLUMN priority text NOT NULL DEFAULT 'normal',
        ADD COLUMN assignee_id bigint,
        ADD COLUMN team_id bigint,
        ADD CONSTRAINT cases_priority_check CHECK (priority IN ('low', 'normal', 'high', 'urgent')) NOT VALID;
      CREATE INDEX cases_by_assignee ON cases (organization_id, assignee_id, created_at DESC, id DESC) WHERE assignee_id IS NOT NULL;
      CREATE INDEX cases_by_team ON cases (organization_id, team_id, created_at DESC, id DESC) WHERE team_id IS NOT NULL;
      CREATE INDEX cases_by_priority ON cases (organization_id, priority, created_at DESC, id DESC) WHERE priority <> 'normal';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX cases_by_assignee, cases_by_team, cases_by_priority;
      ALTER TABLE cases DROP COLUMN priority, DROP COLUMN assignee_id, DROP COLUMN team_id;
    `);
  }
}
