import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reporting (spec/reporting.md): the figures of live cases, kept up to date as cases move so a
 * report never reads `cases`.
 *
 * `report_changes` is a log written by the statements that store a case or its change (the
 * intake's insert, STORE_CHANGES_SQL): one row per live case created, status changed or run
 * failed. It has no key and no index, so the intake takes no row lock that another intake
 * could wait for and writes no index entry at the right edge of a tree every intake writes to.
 * The worker role folds the log, oldest first, into the rollups below and deletes what it
 * folded; a report sums the rollups and the rows not folded yet, reading the whole log, which
 * holds about a second of changes (while no worker runs, reports slow down as it grows).
 * Upserting the rollups straight from the intake would make every intake of a workflow wait,
 * until the commit, for the one before it that holds the same hour's row.
 *
 * The rollups are never purged: retention deletes cases, never figures. They are shaped so a
 * year's report reads a few thousand rows: the series from 24-hour rows, the range-wide figures
 * from months plus the days and hours at the range's ends. `case_close_times` is a histogram
 * with fixed, log-scaled buckets (bucket b holds times up to 2^(b/8) seconds), so periods and
 * workflows merge by adding counts. `case_open_counts` holds the live cases by status (Closed
 * not counted, so purging closed cases changes nothing).
 */
/** The counts kept per workflow and hour, and per 24 hours from each hour. */
const COUNT_COLUMNS = ['created_api', 'created_webhook', 'created_email', 'created_form', 'closed', 'errored', 'reopened']
  .map((column) => `${column} integer NOT NULL DEFAULT 0`)
  .join(', ');

export class CaseReports1763870000000 implements MigrationInterface {
  name = 'CaseReports1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE report_changes (
        organization_id bigint NOT NULL,
        workflow_id     bigint NOT NULL,
        at              timestamptz NOT NULL DEFAULT now(),
        source          text NOT NULL,
        created         smallint NOT NULL DEFAULT 0,
        closed          smallint NOT NULL DEFAULT 0,
        errored         smallint NOT NULL DEFAULT 0,
        reopened        smallint NOT NULL DEFAULT 0,
        close_bucket    smallint,
        status_from     text,
        status_to       text,
        error           text CHECK (char_length(error) <= 200)
      );
      -- Every row is deleted within seconds of its insert: vacuum it as often as the purged tables.
      ALTER TABLE report_changes SET (autovacuum_vacuum_scale_factor = 0.02);

      CREATE TABLE case_report_hours (
        organization_id bigint NOT NULL,
        hour            timestamptz NOT NULL CHECK (hour = date_trunc('hour', hour, 'UTC')),
        workflow_id     bigint NOT NULL,
        ${COUNT_COLUMNS},
        PRIMARY KEY (organization_id, hour, workflow_id)
      );

      -- The same counts over the 24 hours from each hour (so 24 rows hold any one hour): a report
      -- by day or week reads one row per day whatever hour its days start at.
      CREATE TABLE case_report_days (
        organization_id bigint NOT NULL,
        day_start       timestamptz NOT NULL CHECK (day_start = date_trunc('hour', day_start, 'UTC')),
        start_hour      smallint GENERATED ALWAYS AS (extract(hour FROM day_start AT TIME ZONE 'UTC')) STORED,
        workflow_id     bigint NOT NULL,
        ${COUNT_COLUMNS},
        PRIMARY KEY (organization_id, start_hour, day_start, workflow_id)
      );

      -- Figures over the whole range are kept per UTC hour, day and month, so a range reads its
      -- whole months, then the days and hours at its ends.
      CREATE TABLE case_close_times (
        organization_id bigint NOT NULL,
        grain           text NOT NULL CHECK (grain IN ('hour', 'day', 'month')),
        period          timestamptz NOT NULL CHECK (period = date_trunc(grain, period, 'UTC')),
        workflow_id     bigint NOT NULL,
        bucket          smallint NOT NULL CHECK (bucket BETWEEN 0 AND 255),
        cases           integer NOT NULL DEFAULT 0,
        PRIMARY KEY (organization_id, grain, period, workflow_id, bucket)
      );

      CREATE TABLE case_error_messages (
        organization_id bigint NOT NULL,
        grain           text NOT NULL CHECK (grain IN ('hour', 'day', 'month')),
        period          timestamptz NOT NULL CHECK (period = date_trunc(grain, period, 'UTC')),
        workflow_id     bigint NOT NULL,
        message         text NOT NULL CHECK (char_length(message) <= 200),
        failures        integer NOT NULL DEFAULT 0,
        PRIMARY KEY (organization_id, grain, period, workflow_id, message)
      );

      CREATE TABLE case_open_counts (
        organization_id bigint NOT NULL,
        workflow_id     bigint NOT NULL,
        status          text NOT NULL,
        cases           integer NOT NULL DEFAULT 0,
        PRIMARY KEY (organization_id, workflow_id, status)
      );

      -- The live cases already there start the open counts; their history before now is not known.
      INSERT INTO case_open_counts (organization_id, workflow_id, status, cases)
      SELECT organization_id, workflow_id, status, count(*) FROM cases
      WHERE mode = 'live' AND status <> 'Closed' GROUP BY 1, 2, 3;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE report_changes, case_report_hours, case_report_days, case_close_times, case_error_messages, case_open_counts');
  }
}
