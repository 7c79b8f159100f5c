import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops the foreign keys the intake and the automation engine paid for on every write, and keeps
 * what they guarded by how the rows are written (measured in `git show d0a9dbd:docs/benchmarks.md`,
 * "Foreign keys on the write path"):
 *
 * - `cases` to `organizations` and to `workflow_versions`: every intake of an organization
 *   share-locked the same two parent rows, which concurrent intakes turn into multixacts (a
 *   tenth of a millisecond a case), and an update of a case its own transaction had already
 *   updated checked both again. Neither parent row is ever deleted, and a case only names an
 *   organization and a workflow version the service read from those tables.
 * - `case_events` and `workflow_runs` to `cases`: a check per row, on rows that are only ever
 *   written by the statement that creates their case or by one that holds the case's row lock,
 *   and deleted with it by retention's one statement (DELETE_CASES_SQL).
 *
 * The tables whose rows strangers or admins write by other paths (attachments, messages,
 * idempotency and de-duplication keys, the outbox) keep theirs.
 */
export class LooseCaseForeignKeys1763880000000 implements MigrationInterface {
  name = 'LooseCaseForeignKeys1763880000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE cases DROP CONSTRAINT cases_organization_id_fkey, DROP CONSTRAINT cases_workflow_id_workflow_version_fkey`);
    await queryRunner.query(`ALTER TABLE case_events DROP CONSTRAINT case_events_case_id_fkey`);
    await queryRunner.query(`ALTER TABLE workflow_runs DROP CONSTRAINT workflow_runs_case_id_fkey`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE cases ADD CONSTRAINT cases_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
        ADD CONSTRAINT cases_workflow_id_workflow_version_fkey FOREIGN KEY (workflow_id, workflow_version) REFERENCES workflow_versions (workflow_id, version)`);
    await queryRunner.query(`ALTER TABLE case_events ADD CONSTRAINT case_events_case_id_fkey FOREIGN KEY (case_id) REFERENCES cases (id)`);
    await queryRunner.query(`ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_case_id_fkey FOREIGN KEY (case_id) REFERENCES cases (id)`);
  }
}
