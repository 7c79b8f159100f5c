/** The search indexer's pace while automation runs wait or intake is pressed, in the real Redis the lane uses (under its prefix). */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, mock } from 'node:test';
import Bull from 'bull';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { AutomationBacklog, BEHIND_AT_WAITING_RUNS } from '../../src/modules/automation/infrastructure/automation-backlog.js';
import type { SearchIndexer } from '../../src/modules/search/application/search-indexer.service.js';
import { PromSearchIndexMetrics } from '../../src/modules/search/infrastructure/search-index.metrics.js';
import { BEHIND_PASS_MS, SearchIndexerLoop } from '../../src/modules/search/infrastructure/search-indexer.loop.js';
import { BUSY_PENDING, IntakePressure, MARKER_MS, PRESSED_SAMPLES, SAMPLE_MS, WINDOW_SAMPLES } from '../../src/modules/cases/infrastructure/intake-pressure.js';
import { PostgresCaseRepository } from '../../src/modules/cases/infrastructure/postgres-case.repository.js';
import type { Env } from '../../src/shared/config/env.js';
import { ForegroundWork } from '../../src/shared/queue/foreground-work.js';
import { createRedisClient, type RedisConnection } from '../../src/shared/redis/redis.client.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';

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
    for (let i = 0; i < 3; i++) assert.equal(await loop.pass(), 500, 'no wait for the interval the last held-back pass began');
    assert.equal(passes, 5, 'every call is a pass once the runs are done');
    assert.equal(await heldBack(), 0);
  });

  it('does not hold the index back when Redis does not answer', async () => {
    const unreachable = new ForegroundWork();
    unreachable.register(() => Promise.reject(new Error('connection refused')));
    assert.equal(await unreachable.behind(), false);
  });
});

describe('the search indexer while intake is pressed', () => {
  const redis = new Redis(process.env.REDIS_URL!);
  /** One instance in both roles under a prefix of its own: the test gives its samples, and asks it through ForegroundWork. */
  const instances = (prefix: string, connection: RedisConnection = redis) => {
    const env = { ROLE: 'all', REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${prefix}` } as Env;
    const foreground = new ForegroundWork();
    const cases = { intakesPending: () => 0 } as unknown as PostgresCaseRepository;
    const pressure = new IntakePressure(env, connection, cases, foreground);
    foreground.register(() => pressure.pressed());
    return { pressure, foreground, marker: `${env.REDIS_PREFIX}:intake-pressed` };
  };

  after(() => redis.quit());

  it(`counts intake pressed once ${PRESSED_SAMPLES} of the last ${WINDOW_SAMPLES} samples found ${BUSY_PENDING} new cases waiting or more, for ${MARKER_MS} ms`, async () => {
    const { pressure, foreground, marker } = instances(`pressed-${process.pid}`);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < WINDOW_SAMPLES; i++) pressure.sample(i < PRESSED_SAMPLES - 1 ? BUSY_PENDING + 10 : 0);
    pressure.sample(BUSY_PENDING);
    await settle();
    assert.equal(await foreground.behind(), false, 'the oldest busy sample left the window as the last one came in');
    for (let i = 0; i < WINDOW_SAMPLES; i++) pressure.sample(BUSY_PENDING - 1);
    for (let i = 0; i < PRESSED_SAMPLES - 1; i++) pressure.sample(BUSY_PENDING);
    await settle();
    assert.equal(await foreground.behind(), false, 'one sample short: a busy moment, not a burst');
    pressure.sample(BUSY_PENDING);
    await settle();
    assert.equal(await foreground.behind(), true);
    const ttl = await redis.pttl(marker);
    assert.ok(ttl > MARKER_MS - 500 && ttl <= MARKER_MS, String(ttl));
  });

  it('sets the marker again only once it is half gone, and holds the indexer back while it lives', async () => {
    let sets = 0;
    const counting = new Proxy(redis, {
      get: (target, name) => (name === 'set' ? (...args: Parameters<Redis['set']>) => (sets++, target.set(...args)) : Reflect.get(target, name)),
    });
    const { pressure, foreground, marker } = instances(`again-${process.pid}`, counting);
    for (let i = 0; i < 3 * WINDOW_SAMPLES; i++) pressure.sample(BUSY_PENDING);
    assert.equal(sets, 1, 'a burst costs one command while the marker is fresh');
    await new Promise((resolve) => setTimeout(resolve, MARKER_MS / 2 + 50));
    pressure.sample(BUSY_PENDING);
    assert.equal(sets, 2);
    assert.equal(await redis.exists(marker), 1);
    let passes = 0;
    const loop = new SearchIndexerLoop({ pass: async () => (passes++, 500) } as unknown as SearchIndexer, foreground, new PromSearchIndexMetrics(new Registry()), pino({ level: 'silent' }));
    assert.equal(await loop.pass(), 500);
    assert.equal(await loop.pass(), 0, 'the next pass waits, as while automation runs wait');
    assert.equal(passes, 1);
    await redis.del(marker);
    assert.equal(await foreground.behind(), false, 'no marker, no pressure');
  });

  it('does not hold the index back when Redis does not answer', async () => {
    const unreachable = createRedisClient({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER: false });
    try {
      const { pressure, foreground } = instances(`down-${process.pid}`, unreachable);
      for (let i = 0; i < WINDOW_SAMPLES; i++) pressure.sample(BUSY_PENDING);
      assert.equal(await foreground.behind(), false);
    } finally {
      unreachable.disconnect();
    }
  });

  it('samples only in API roles and tells only in worker roles', async () => {
    const prefix = `${process.env.REDIS_PREFIX}:roles-${process.pid}`;
    const busy = { intakesPending: () => BUSY_PENDING } as unknown as PostgresCaseRepository;
    const started = (role: 'api' | 'worker') => {
      const foreground = new ForegroundWork();
      const pressure = new IntakePressure({ ROLE: role, REDIS_PREFIX: prefix } as Env, redis, busy, foreground);
      pressure.onApplicationBootstrap();
      return { pressure, foreground };
    };
    const worker = started('worker');
    await new Promise((resolve) => setTimeout(resolve, (WINDOW_SAMPLES + 2) * SAMPLE_MS));
    assert.equal(await redis.exists(`${prefix}:intake-pressed`), 0, 'a worker does not sample');
    const api = started('api');
    await new Promise((resolve) => setTimeout(resolve, (WINDOW_SAMPLES + 2) * SAMPLE_MS));
    api.pressure.beforeApplicationShutdown();
    worker.pressure.beforeApplicationShutdown();
    assert.equal(await api.foreground.behind(), false, 'an API instance has no indexer to hold back');
    assert.equal(await worker.foreground.behind(), true, 'the worker hears what the API instance marked');
    await redis.del(`${prefix}:intake-pressed`);
  });

  describe('as the service wires it (ROLE=all: an API and a worker in one process)', () => {
    let ctx: IntegrationContext;
    before(async () => {
      // A prefix of its own: the marker it sets would hold back the indexer of the lane's next test file.
      ctx = await startIntegrationContext({ env: { ROLE: 'all', REDIS_PREFIX: `${process.env.REDIS_PREFIX}:intake-pressure-${process.pid}` } });
    });
    after(() => ctx.close());

    it('samples the intake batches every few milliseconds and tells the workers', async () => {
      const foreground = ctx.get(ForegroundWork);
      assert.equal(await foreground.behind(), false, 'an idle service is not pressed');
      const cases = ctx.get(PostgresCaseRepository);
      cases.intakesPending = () => BUSY_PENDING;
      await new Promise((resolve) => setTimeout(resolve, (WINDOW_SAMPLES + 2) * SAMPLE_MS));
      assert.equal(await foreground.behind(), true);
    });
  });
});
