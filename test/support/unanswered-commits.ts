import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/shared/database/data-source-options.js';
import { db } from './test-app.js';

/** How long a COMMIT made slow by `slowCommits` takes on the server. */
const SLOW_COMMIT_SECONDS = 1.5;

/**
 * A data source on this run's database that gives up on any statement unanswered after
 * `queryTimeoutMs` (the app's waits 30 s): on its pipelined connections a COMMIT that takes
 * longer is left unanswered, its connection destroyed, while the server goes on committing.
 */
export async function impatientDataSource(queryTimeoutMs = 500): Promise<DataSource> {
  const options = dataSourceOptions({ DATABASE_URL: process.env.DATABASE_URL! });
  return new DataSource({ ...options, extra: { ...options.extra, query_timeout: queryTimeoutMs } } as typeof options).initialize();
}

/**
 * Makes the COMMIT of a transaction that inserted rows of `table` matching `slowWhen` (SQL on
 * NEW) take SLOW_COMMIT_SECONDS on the server (a deferred constraint trigger), and then fail
 * when the row also matches `failWhen`. Answers what drops it again.
 */
export async function slowCommits(table: string, slowWhen: string, failWhen = 'false'): Promise<() => Promise<void>> {
  const name = `slow_commit_${table}`;
  await db().query(`
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Once per transaction, however many of its rows match.
      IF ${slowWhen} AND current_setting('slow_commit.slept', true) IS DISTINCT FROM 'yes' THEN
        PERFORM set_config('slow_commit.slept', 'yes', true);
        PERFORM pg_sleep(${SLOW_COMMIT_SECONDS});
      END IF;
      IF ${slowWhen} AND ${failWhen} THEN RAISE EXCEPTION 'refused at commit'; END IF;
      RETURN NULL;
    END $$`);
  await db().query(`CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db().query(`DROP TRIGGER ${name} ON ${table}`);
    await db().query(`DROP FUNCTION ${name}()`);
  };
}
