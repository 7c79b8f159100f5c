/** The search indexer's pace while automation runs wait in the real Redis the lane uses (a Bull queue under its prefix). */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it, mock } from 'node:test';
import Bull from 'bull';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { AutomationBacklog, BEHIND_AT_WAITING_RUNS } from '../../src/modules/automation/infrastructure/automation-backlog.js';
import type { SearchIndexer } from '../../src/modules/search/application/search-indexer.service.js';
import { PromSearchIndexMetrics } from '../../src/modules/search/infrastructure/search-index.metrics.js';
import { BEHIND_PASS_MS, SearchIndexerLoop } from '../../src/modules/search/infrastructure/search-indexer.loop.js';
import { ForegroundWork } from '../../src/shared/queue/foreground-work.js';

describe('the search indexer while automation runs wait', () => {
  const queue = new Bull(`foreground-work-spec-${process.pid}`, { redis: process.env.REDIS_URL!, prefix: `${process.env.REDIS_PREFIX}:bull` });
  const foreground = new ForegroundWork();
  new AutomationBacklog(foreground, queue);
  let passes = 0;
  const indexer = { pass: async () => (passes++, 500) } as unknown as SearchIndexer;
  const registry = new Registry();
  const loop = new SearchIndexerLoop(indexer, foreground, new PromSearchIndexMetrics(registry), pino({ level: 'silent' }));
  const heldBack = async () => (await registry.getSingleMetric('search_indexer_held_back')!.get()).values[0]?.value;

  after(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });
  afterEach(() => mock.timers.reset());

  it(`counts the workers behind from ${BEHIND_AT_WAITING_RUNS} waiting runs`, async () => {
    await queue.addBulk(Array.from({ length: BEHIND_AT_WAITING_RUNS - 1 }, (_, i) => ({ name: 'run', data: { runId: i } })));
    assert.equal(await foreground.behind(), false);
    await queue.add('run', { runId: BEHIND_AT_WAITING_RUNS });
    assert.equal(await foreground.behind(), true);
  });

  it(`makes a pass at most every ${BEHIND_PASS_MS} ms while they are behind, and passes at once again when they are not`, async () => {
    mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    passes = 0;
    assert.equal(await loop.pass(), 500);
    assert.equal(await heldBack(), 1, 'the metrics say the index is held back');
    assert.equal(await loop.pass(), 0, 'no pass while behind, within the interval');
    mock.timers.tick(BEHIND_PASS_MS - 1);
    assert.equal(await loop.pass(), 0);
    mock.timers.tick(1);
    assert.equal(await loop.pass(), 500);
    assert.equal(passes, 2);
    await queue.empty();
    mock.timers.tick(BEHIND_PASS_MS);
    for (let i = 0; i < 3; i++) assert.equal(await loop.pass(), 500);
    assert.equal(passes, 5, 'every call is a pass once the runs are done');
    assert.equal(await heldBack(), 0);
  });

  it('does not hold the index back when Redis does not answer', async () => {
    const unreachable = new ForegroundWork();
    unreachable.register(() => Promise.reject(new Error('connection refused')));
    assert.equal(await unreachable.behind(), false);
  });
});
