/**
 * The reports' fold on a database of its own: the log of changes moved into the rollups whole
 * and once, also with several folds at once, and the failure messages of an hour capped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FOLD_SQL, MAX_MESSAGES_PER_HOUR, OTHER_ERRORS } from '../../src/modules/reporting/infrastructure/report-rollups.sql.js';
import { type IsolatedDatabase, isolatedDatabase } from '../support/automation-helpers.js';

const ORG = 1;
const WORKFLOW = 7;
const HOUR = '2026-11-02T10:00:00Z';

describe('report fold', () => {
  let database: IsolatedDatabase;
  before(async () => {
    database = await isolatedDatabase();
  });
  after(() => database.drop());

  const fold = async (limit: number) => (await database.pool.query<{ folded: number }>(FOLD_SQL, [limit])).rows[0]!.folded;
  const logged = async () => (await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM report_changes')).rows[0]!.n;

  it('keeps at most 20 distinct failure messages per workflow and hour, counting the rest as other errors', async () => {
    // 25 distinct messages in the hour, the first one three times; and a 26th in the next hour.
    await database.pool.query(
      `INSERT INTO report_changes (organization_id, workflow_id, at, source, error)
       SELECT $1::bigint, $2::bigint, $3::timestamptz + g * interval '1 minute', 'API', 'step failed: ' || greatest(g - 2, 1) FROM generate_series(1, 27) g
       UNION ALL SELECT $1, $2, $3::timestamptz + interval '1 hour', 'API', 'step failed: late'`,
      [ORG, WORKFLOW, HOUR],
    );
    // Folded in batches of 10, so the cap holds across folds too.
    while ((await fold(10)) > 0);
    assert.equal(await logged(), 0);
    const { rows } = await database.pool.query<{ hour: Date; message: string; failures: number }>(
      'SELECT hour, message, failures FROM case_error_hours WHERE organization_id = $1 ORDER BY hour, failures DESC, message',
      [ORG],
    );
    const first = rows.filter((r) => r.hour.toISOString() === new Date(HOUR).toISOString());
    assert.equal(first.length, MAX_MESSAGES_PER_HOUR + 1);
    assert.equal(first.reduce((sum, r) => sum + r.failures, 0), 27);
    assert.equal(first.find((r) => r.message === 'step failed: 1')?.failures, 3);
    assert.equal(first.find((r) => r.message === OTHER_ERRORS)?.failures, 27 - 3 - (MAX_MESSAGES_PER_HOUR - 1));
    assert.deepEqual(rows.filter((r) => r.hour.toISOString() !== new Date(HOUR).toISOString()).map((r) => [r.message, r.failures]), [['step failed: late', 1]]);
  });

  it('folds every change exactly once when several folds run at once', async () => {
    await database.pool.query(
      `INSERT INTO report_changes (organization_id, workflow_id, at, source, created, closed, close_bucket, status_from, status_to)
       SELECT $1, $2, $3::timestamptz + (g % 180) * interval '1 minute', (ARRAY['API', 'Webhook'])[1 + g % 2], 1, (g % 3 = 0)::int,
              CASE WHEN g % 3 = 0 THEN 100 END, CASE WHEN g % 3 = 0 THEN 'Open' END, CASE WHEN g % 3 <> 0 THEN 'Open' END
       FROM generate_series(1, 3000) g`,
      [ORG, WORKFLOW, HOUR],
    );
    const workers = Array.from({ length: 4 }, async () => {
      let folded = 0;
      for (let idle = 0; idle < 50 && (await logged()) > 0; ) {
        const n = await fold(200);
        folded += n;
        if (n === 0) idle++;
      }
      return folded;
    });
    const folded = (await Promise.all(workers)).reduce((a, b) => a + b, 0);
    assert.equal(folded, 3000);
    assert.equal(await logged(), 0);
    const hours = await database.pool.query('SELECT source, sum(created)::int AS created, sum(closed)::int AS closed FROM case_report_hours WHERE organization_id = $1 GROUP BY source ORDER BY source', [ORG]);
    assert.deepEqual(hours.rows, [{ source: 'API', created: 1500, closed: 500 }, { source: 'Webhook', created: 1500, closed: 500 }]);
    const closes = await database.pool.query('SELECT sum(cases)::int AS n FROM case_close_times WHERE organization_id = $1 AND bucket = 100', [ORG]);
    assert.equal(closes.rows[0].n, 1000);
    const open = await database.pool.query('SELECT status, cases FROM case_open_counts WHERE organization_id = $1', [ORG]);
    assert.deepEqual(open.rows, [{ status: 'Open', cases: 1000 }]);
  });
});
