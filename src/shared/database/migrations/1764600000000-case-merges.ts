import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merged cases (casework.md, section 6): which case each merged case went into. A pointer
 * always names the final target (a merge into a case that is later merged moves its pointers
 * along), so the cases shown on a target are one lookup away. No foreign keys: a key on
 * `cases` would make every purged case look its pointers up without the organization, past
 * these indexes; the retention purge deletes the pointers of the cases it deletes instead.
 */
export class CaseMerges1764600000000 implements MigrationInterface {
  name = 'CaseMerges1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE case_merges (
        organization_id bigint NOT NULL,
        merged_case_id  bigint NOT NULL,
        into_case_id    bigint NOT NULL,
        merged_at       timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, merged_case_id),
        CHECK (merged_case_id <> into_case_id)
      );
      CREATE INDEX case_merges_into ON case_merges (organization_id, into_case_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE case_merges`);
  }
}
