import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { pino } from 'pino';
import { PollingLoop } from './polling-loop.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));
const logger = pino({ level: 'silent' });

/** Whether `stop` has resolved once pending callbacks ran, the clock standing still (its timers never fire). */
async function stopsWithoutWaiting(loop: PollingLoop): Promise<boolean> {
  const stopped = loop.stop().then(() => true);
  return Promise.race([stopped, settled().then(settled).then(() => false)]);
}

describe('PollingLoop', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('passes again at once while a pass moves a full batch, and after idleMs when it moves less', async () => {
    const moved = [2, 2, 1];
    let passes = 0;
    const loop = new PollingLoop('test loop', () => Promise.resolve(moved[passes++] ?? 0), 2, logger, 60_000);
    loop.start();
    await settled();
    assert.equal(passes, 3);
    mock.timers.tick(60_000);
    await settled();
    assert.equal(passes, 4);
    assert.equal(await stopsWithoutWaiting(loop), true);
  });

  it('a stop ends the idle pause under way: it does not wait out idleMs', async () => {
    let passes = 0;
    const loop = new PollingLoop('test loop', () => {
      passes++;
      return Promise.resolve(0);
    }, 10, logger, 60_000);
    loop.start();
    await settled();
    assert.equal(await stopsWithoutWaiting(loop), true);
    assert.equal(passes, 1);
  });

  it('a stop ends the backoff of an outage under way', async () => {
    let passes = 0;
    const loop = new PollingLoop('test loop', () => Promise.reject(new Error(`down ${++passes}`)), 10, logger);
    loop.start();
    for (const backoff of [400, 800, 1600, 3200]) {
      await settled();
      mock.timers.tick(backoff);
    }
    await settled();
    assert.equal(passes, 5);
    assert.equal(await stopsWithoutWaiting(loop), true);
    assert.equal(passes, 5);
  });
});
