import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved views of the case list (casework.md, section 5) and bulk changes (section 6).
 *
 * A view keeps the list's query parameters as given (text values) and its columns; `owner_id`
 * is the person who saved it (null for one an admin token saved, which is shared).
 *
 * A bulk job fixes its cases when it is accepted: `bulk_job_cases` holds one row per case,
 * written in the job's own transaction. The worker changes a chunk of cases and marks their rows
 * finished (with a failure's reason) in one transaction, with the job's counts: a case changes
 * once, whatever process dies when. `enqueued_at` and `locked_until` are the relay's hand-over
 * and the worker's lease, as for sign-in mails; the partial index finds unfinished jobs only.
 */
export class CaseViewsAndBulkJobs1764500000000 implements MigrationInterface {
  name = 'CaseViewsAndBulkJobs1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE case_views (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        owner_id        bigint,
        name            text NOT NULL,
        filters         jsonb NOT NULL,
        columns         text[] NOT NULL,
        shared          boolean NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, owner_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX case_views_owner ON case_views (organization_id, owner_id);

      CREATE TABLE bulk_jobs (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        change          jsonb NOT NULL,
        requested_by    jsonb NOT NULL,
        total           integer NOT NULL,
        done            integer NOT NULL DEFAULT 0,
        failed          integer NOT NULL DEFAULT 0,
        state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'finished')),
        attempts        integer NOT NULL DEFAULT 0,
        created_at      timestamptz NOT NULL DEFAULT now(),
        finished_at     timestamptz,
        enqueued_at     timestamptz,
        locked_until    timestamptz,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX bulk_jobs_unfinished ON bulk_jobs (organization_id, id) WHERE state <> 'finished';

      CREATE TABLE bulk_job_cases (
        organization_id bigint NOT NULL,
        job_id          bigint NOT NULL,
        case_id         bigint NOT NULL,
        finished        boolean NOT NULL DEFAULT false,
        failure         text,
        PRIMARY KEY (organization_id, job_id, case_id),
        FOREIGN KEY (organization_id, job_id) REFERENCES bulk_jobs (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX bulk_job_cases_failed ON bulk_job_cases (organization_id, job_id, case_id) WHERE failure IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE bulk_job_cases; DROP TABLE bulk_jobs; DROP TABLE case_views');
  }
}
