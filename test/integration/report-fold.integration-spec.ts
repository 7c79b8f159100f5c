/**
 * The reports' fold on a database of its own: the log of changes moved into the rollups whole
 * and once, also with several folds at once, and the failure messages of an hour capped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FOLD, MAX_MESSAGES_PER_PERIOD, OTHER_ERRORS } from '../../src/modules/reporting/infrastructure/report-rollups.sql.js';
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

  const fold = async (limit: number) => (await database.pool.query<{ folded: number }>(FOLD.text, [limit])).rows[0]!.folded;
  const logged = async () => (await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM report_changes')).rows[0]!.n;

  it('keeps at most 20 distinct failure messages per workflow and hour, day and month, counting the rest as other errors', async () => {
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
    const { rows } = await database.pool.query<{ grain: string; period: Date; message: string; failures: number }>(
      'SELECT grain, period, message, failures FROM case_error_messages WHERE organization_id = $1 ORDER BY grain, period, failures DESC, message',
      [ORG],
    );
    const of = (grain: string, period: string) => rows.filter((r) => r.grain === grain && r.period.toISOString() === new Date(period).toISOString());
    const first = of('hour', HOUR);
    assert.equal(first.length, MAX_MESSAGES_PER_PERIOD + 1);
    assert.equal(first.reduce((sum, r) => sum + r.failures, 0), 27);
    assert.equal(first.find((r) => r.message === 'step failed: 1')?.failures, 3);
    assert.equal(first.find((r) => r.message === OTHER_ERRORS)?.failures, 27 - 3 - (MAX_MESSAGES_PER_PERIOD - 1));
    assert.deepEqual(of('hour', '2026-11-02T11:00:00Z').map((r) => [r.message, r.failures]), [['step failed: late', 1]]);
    // The day and the month hold both hours: the late message is new to them once 20 are kept.
    for (const [grain, period] of [['day', '2026-11-02T00:00:00Z'], ['month', '2026-11-01T00:00:00Z']] as const) {
      const kept = of(grain, period);
      assert.equal(kept.length, MAX_MESSAGES_PER_PERIOD + 1, grain);
      assert.equal(kept.reduce((sum, r) => sum + r.failures, 0), 28, grain);
      assert.equal(kept.find((r) => r.message === OTHER_ERRORS)?.failures, 28 - 3 - (MAX_MESSAGES_PER_PERIOD - 1), grain);
    }
    assert.equal(rows.length, 3 * (MAX_MESSAGES_PER_PERIOD + 1) + 1);
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
    const totals = 'sum(created_api)::int AS api, sum(created_webhook)::int AS webhook, sum(created_email + created_form)::int AS other, sum(closed)::int AS closed';
    const hours = await database.pool.query(`SELECT ${totals} FROM case_report_hours WHERE organization_id = $1`, [ORG]);
    assert.deepEqual(hours.rows, [{ api: 1500, webhook: 1500, other: 0, closed: 1000 }]);
    // Each hour counts in the 24 day rows that start in the 23 hours before it or at it.
    const days = await database.pool.query(`SELECT ${totals} FROM case_report_days WHERE organization_id = $1`, [ORG]);
    assert.deepEqual(days.rows, [{ api: 24 * 1500, webhook: 24 * 1500, other: 0, closed: 24 * 1000 }]);
    const closes = await database.pool.query('SELECT grain, sum(cases)::int AS n FROM case_close_times WHERE organization_id = $1 AND bucket = 100 GROUP BY 1 ORDER BY 1', [ORG]);
    assert.deepEqual(closes.rows, [{ grain: 'day', n: 1000 }, { grain: 'hour', n: 1000 }, { grain: 'month', n: 1000 }]);
    const open = await database.pool.query('SELECT status, cases FROM case_open_counts WHERE organization_id = $1', [ORG]);
    assert.deepEqual(open.rows, [{ status: 'Open', cases: 1000 }]);
  });
});
