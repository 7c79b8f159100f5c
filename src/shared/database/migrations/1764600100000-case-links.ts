import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Links between two cases of an organization (casework.md, section 6): `case_id` <type>
 * `other_case_id` (relates to, duplicates, blocks). One link per pair of cases and type,
 * whichever way it points. No foreign keys, for the reason given in the case-merges migration:
 * the retention purge deletes the links of the cases it deletes.
 */
export class CaseLinks1764600100000 implements MigrationInterface {
  name = 'CaseLinks1764600100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE case_links (
        organization_id bigint NOT NULL,
        id              bigserial NOT NULL,
        case_id         bigint NOT NULL,
        other_case_id   bigint NOT NULL,
        type            text NOT NULL CHECK (type IN ('relates', 'duplicates', 'blocks')),
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id),
        CHECK (case_id <> other_case_id)
      );
      CREATE UNIQUE INDEX case_links_pair ON case_links (organization_id, least(case_id, other_case_id), greatest(case_id, other_case_id), type);
      CREATE INDEX case_links_case ON case_links (organization_id, case_id);
      CREATE INDEX case_links_other_case ON case_links (organization_id, other_case_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE case_links`);
  }
}
