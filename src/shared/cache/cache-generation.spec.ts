import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Env } from '../config/env.js';
import type { TransactionRunner } from '../database/transaction.js';
import type { Logger } from '../logging/logger.js';
import { CacheGeneration, type GenerationConnection } from './cache-generation.js';
import { CacheTrust, TRUST_MS } from './cache-trust.js';

function trustCounting(): { trust: CacheTrust; resets: () => number; dropped: string[] } {
  const trust = new CacheTrust();
  let resets = 0;
  const dropped: string[] = [];
  trust.listen('tokens', { reset: () => resets++, drop: (key) => dropped.push(`tokens ${key}`) });
  trust.listen('workflows', { reset: () => undefined, drop: (key) => dropped.push(`workflows ${key}`) });
  return { trust, resets: () => resets, dropped };
}

describe('CacheTrust', () => {
  it('trusts the caches only until TRUST_MS after the newest successful poll STARTED', () => {
    const { trust } = trustCounting();
    assert.equal(trust.isTrusted(0), false, 'nothing heard yet');
    trust.heard('1', [], 1_000, 1_300);
    assert.equal(trust.isTrusted(1_300), true);
    assert.equal(trust.isTrusted(1_000 + TRUST_MS - 1), true);
    assert.equal(trust.isTrusted(1_000 + TRUST_MS), false, 'counted from the start, not the answer');
  });

  it('a slow poll that answers after a newer one does not move the trust back', () => {
    const { trust } = trustCounting();
    trust.heard('1', [], 1_200, 1_250);
    trust.heard('1', [], 1_000, 1_300);
    assert.equal(trust.isTrusted(1_000 + TRUST_MS + 50), true);
  });

  it('drops the keys the changes since the last poll invalidated, in their caches only, and empties nothing', () => {
    const { trust, resets, dropped } = trustCounting();
    trust.heard('7', [], 0, 10);
    const first = resets();
    trust.heard('7', [], 200, 210);
    trust.heard('9', [{ cache: 'tokens', key: 'a' }, { cache: 'workflows', key: '12' }], 400, 410);
    assert.equal(resets(), first, 'same number, or every change named');
    assert.deepEqual(dropped, ['tokens a', 'workflows 12']);
    assert.equal(trust.since(410), '9', 'the next poll asks for the changes after 9');
  });

  it('empties the caches when a change since the last poll is not named (its row pruned, or bumped without one)', () => {
    const { trust, resets, dropped } = trustCounting();
    trust.heard('7', [], 0, 10);
    const first = resets();
    trust.heard('9', [{ cache: 'tokens', key: 'a' }], 200, 210);
    assert.equal(resets(), first + 1);
    assert.deepEqual(dropped, [], 'emptied instead');
  });

  it('after a gap (the caches were not trusted) empties them before trusting them again, even if the number is the same', () => {
    const { trust, resets } = trustCounting();
    trust.heard('7', [], 0, 10);
    const before = resets();
    assert.equal(trust.since(2_000), null, 'a poll after the gap asks for no rows');
    trust.heard('7', [], 2_000, 2_010);
    assert.equal(resets(), before + 1);
    assert.equal(trust.isTrusted(2_010), true);
  });
});

/** A poller whose connection the test plays. */
class ScriptedGeneration extends CacheGeneration {
  connects = 0;
  ended = 0;
  readonly warnings: string[];
  constructor(private readonly answers: (() => Promise<string>)[]) {
    const warnings: string[] = [];
    super({} as TransactionRunner, { DATABASE_URL: 'postgres://unused' } as Env, { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as Logger);
    this.warnings = warnings;
  }
  protected override async connect(): Promise<GenerationConnection> {
    this.connects++;
    // Only what the poll uses of a pg client.
    return {
      query: async () => ({ rows: [{ generation: await this.answers.shift()!(), changed: null, cache: null, key: null }] }),
      end: async () => { this.ended++; },
    } as unknown as GenerationConnection;
  }
}

describe('CacheGeneration.poll', () => {
  it('a poll that answers makes the caches trusted; a failed one drops the connection and the next one reconnects', async () => {
    const poller = new ScriptedGeneration([async () => '1', async () => { throw new Error('Connection terminated'); }, async () => '2']);
    let resets = 0;
    poller.listen('tokens', { reset: () => resets++, drop: () => undefined });
    await poller.poll();
    assert.equal(poller.isTrusted(), true);
    await poller.poll();
    assert.equal(poller.ended, 1, 'the broken connection is closed');
    assert.equal(poller.warnings.length, 1, 'the failure is logged');
    const before = resets;
    await poller.poll();
    assert.equal(poller.connects, 2);
    assert.equal(resets, before + 1, 'the number changed while the connection was down');
  });

  it('runs one poll at a time: a hanging one is not joined by more', async () => {
    let answer!: (generation: string) => void;
    const poller = new ScriptedGeneration([() => new Promise<string>((resolve) => { answer = resolve; })]);
    const hanging = poller.poll();
    await poller.poll();
    assert.equal(poller.isTrusted(), false, 'nothing answered yet');
    answer('1');
    await hanging;
    assert.equal(poller.isTrusted(), true);
  });

  it('a poll under way when the application stops fails with the closed connection without a warning, and none runs after', async () => {
    let fail!: (err: Error) => void;
    const poller = new ScriptedGeneration([async () => '1', () => new Promise<string>((_, reject) => { fail = reject; })]);
    await poller.poll();
    const underway = poller.poll();
    await new Promise(setImmediate);
    await poller.onApplicationShutdown();
    fail(new Error('Connection terminated'));
    await underway;
    await poller.poll();
    assert.deepEqual(poller.warnings, []);
    assert.equal(poller.connects, 1, 'no poll reconnects after the stop');
  });
});
