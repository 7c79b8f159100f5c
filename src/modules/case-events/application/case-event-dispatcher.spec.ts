import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiscoveryService } from '@nestjs/core';
import type { CaseEvent, CaseEventHandler, CaseEventType } from '../../../extension-api/case-events.js';
import { CASE_EVENT_TYPES } from '../../../extension-api/case-events.js';
import type { Logger } from '../../../shared/logging/logger.js';
import { LIFECYCLE_EVENT_TYPES } from '../../cases/domain/case-lifecycle.js';
import { type ClaimedHandling, type HandlingRef, ListenerHandlings, ListenerMetrics, MAX_HANDLING_ATTEMPTS } from '../domain/listener-handlings.js';
import { CaseEventDispatcher, ListenerFailed } from './case-event-dispatcher.js';
import { CaseEventListenerRegistry } from './case-event-listener.registry.js';

function eventAt(attempt: number): CaseEvent {
  return {
    id: '7', type: 'case.created', organization_id: 1, workflow_id: 2, case_id: 3, status: { from: null, to: 'Open' },
    occurred_at: '2026-11-27T08:00:00.000Z', attempt,
    case: { id: 3, workflow_id: 2, subject: 'Box', status: 'Open', outcome: null, mode: 'live', attributes: {}, created_at: '2026-11-27T08:00:00.000Z', updated_at: '2026-11-27T08:00:00.000Z' },
  };
}

/** The handlings' store in memory: one handling, at the attempt given, and what was recorded of it. */
class OneHandling extends ListenerHandlings {
  readonly recorded: string[] = [];
  constructor(private readonly attempt: number | null, private readonly listener = 'tickets') {
    super();
  }
  async claim(ref: HandlingRef, _leaseMs: number, listeners: readonly string[]): Promise<ClaimedHandling | null> {
    if (this.attempt === null || !listeners.includes(this.listener)) return null;
    return { ...ref, listener: this.listener, event: eventAt(this.attempt) };
  }
  async renewLease(): Promise<void> {}
  async recordHandled(): Promise<void> {
    this.recorded.push('handled');
  }
  async recordFailure(_handling: ClaimedHandling, error: string, forGood: boolean): Promise<void> {
    this.recorded.push(`${forGood ? 'failed' : 'retry'}: ${error}`);
  }
}

class CountingMetrics extends ListenerMetrics {
  readonly counted: string[] = [];
  handled(listener: string): void {
    this.counted.push(`handled ${listener}`);
  }
  failedForGood(listener: string): void {
    this.counted.push(`failed ${listener}`);
  }
}

function listener(name: string, events: readonly string[], handle: (event: CaseEvent) => Promise<void> = async () => undefined): CaseEventHandler {
  return { name, events: events as CaseEventType[], handle };
}

function registryOf(...listeners: CaseEventHandler[]): CaseEventListenerRegistry {
  const discovery = { getProviders: () => listeners.map((instance) => ({ instance })) } as unknown as DiscoveryService;
  const registry = new CaseEventListenerRegistry(discovery);
  registry.onModuleInit();
  return registry;
}

function dispatcherWith(handlings: ListenerHandlings, registry: CaseEventListenerRegistry) {
  const metrics = new CountingMetrics();
  const logged: string[] = [];
  const logger = { warn: (_context: unknown, message: string) => logged.push(`warn ${message}`), error: (_context: unknown, message: string) => logged.push(`error ${message}`) } as unknown as Logger;
  return { dispatcher: new CaseEventDispatcher(handlings, registry, metrics, logger), metrics, logged };
}

const REF = { organizationId: 1, id: 7 };

describe('case-event dispatcher', () => {
  it('records a handled event and counts it', async () => {
    const handlings = new OneHandling(1);
    const seen: CaseEvent[] = [];
    const { dispatcher, metrics } = dispatcherWith(handlings, registryOf(listener('tickets', ['case.created'], async (e) => void seen.push(e))));
    await dispatcher.dispatch(REF);
    assert.deepEqual(seen, [eventAt(1)]);
    assert.deepEqual(handlings.recorded, ['handled']);
    assert.deepEqual(metrics.counted, ['handled tickets']);
  });

  it('keeps a throw\'s message and has the queue try again, before the last attempt', async () => {
    const handlings = new OneHandling(MAX_HANDLING_ATTEMPTS - 1);
    const { dispatcher, metrics, logged } = dispatcherWith(handlings, registryOf(listener('tickets', ['case.created'], async () => { throw new Error('down'); })));
    await assert.rejects(dispatcher.dispatch(REF), ListenerFailed);
    assert.deepEqual(handlings.recorded, ['retry: down']);
    assert.deepEqual(metrics.counted, []);
    assert.equal(logged.length, 1);
  });

  it('gives the event up on the last attempt, logged as an error and counted, without a retry', async () => {
    const handlings = new OneHandling(MAX_HANDLING_ATTEMPTS);
    const { dispatcher, metrics, logged } = dispatcherWith(handlings, registryOf(listener('tickets', ['case.created'], async () => { throw new Error('down'); })));
    await dispatcher.dispatch(REF);
    assert.deepEqual(handlings.recorded, ['failed: down']);
    assert.deepEqual(metrics.counted, ['failed tickets']);
    assert.deepEqual(logged, ['error case-event listener failed its last attempt; the event is given up']);
  });

  it('leaves alone a handling this process cannot take (held, done, or of a listener it does not run)', async () => {
    let called = false;
    const registry = registryOf(listener('other', ['case.created'], async () => { called = true; }));
    for (const handlings of [new OneHandling(null), new OneHandling(1, 'tickets')]) {
      await dispatcherWith(handlings, registry).dispatcher.dispatch(REF);
      assert.deepEqual(handlings.recorded, []);
    }
    assert.equal(called, false);
  });
});

describe('case-event listener registry', () => {
  it('refuses a listener that wants an event type that does not exist', () => {
    assert.throws(() => registryOf(listener('tickets', ['case.created', 'case.moved'])), {
      message: `case-event listener "tickets" wants unknown event types case.moved; known: ${CASE_EVENT_TYPES.join(', ')}`,
    });
  });

  it('offers listeners every event type the cases module emits, and no other', () => {
    assert.deepEqual([...CASE_EVENT_TYPES], [...LIFECYCLE_EVENT_TYPES]);
  });
});
