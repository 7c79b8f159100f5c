import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { createApp } from '../../src/app.js';
import { type CaseEvent, type CaseEventHandler, CaseEventListener, type CaseEventType } from '../../src/extension-api/index.js';
import { validateEnv } from '../../src/shared/config/env.js';
import { createLogger } from '../../src/shared/logging/logger.js';
import { createdCaseId, getCase, givenCasesWorkflow, patchCase, postCase, statusDefinition } from '../support/cases-api.js';
import { waitFor } from '../support/subscription-helpers.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

interface Received {
  event: CaseEvent;
  /** Whether another connection saw the case when the listener ran: only a committed case is seen. */
  committed: boolean;
}

/**
 * A listener of an extension, as a team would write it: it records what it receives, throws
 * once on a case called "flaky", and on every attempt on one called "held back" (whose events
 * so stay in the table).
 */
@CaseEventListener()
@Injectable()
class RecordingListener implements CaseEventHandler {
  readonly name = 'test-recorder';
  readonly events: CaseEventType[] = ['case.created', 'case.status_changed', 'case.closed', 'case.errored'];
  readonly received: Received[] = [];

  async handle(event: CaseEvent): Promise<void> {
    const seen = await db().query('SELECT 1 FROM cases WHERE id = $1', [event.case_id]);
    this.received.push({ event, committed: seen.rowCount === 1 });
    if (event.case.subject === 'flaky' && event.attempt === 1) throw new Error('the ticket system is down');
    if (event.case.subject === 'held back') throw new Error('held back');
  }
}

/** A second listener of the same extension, told only of new cases. */
@CaseEventListener()
@Injectable()
class CreatedCounter implements CaseEventHandler {
  readonly name = 'test-created-counter';
  readonly events: CaseEventType[] = ['case.created'];
  readonly received: CaseEvent[] = [];

  async handle(event: CaseEvent): Promise<void> {
    this.received.push(event);
  }
}

@Module({ providers: [RecordingListener, CreatedCounter] })
class RecordingExtensionModule {
  static readonly apiVersion = '1.0.0';
}

describe('case-event listeners (extension API)', () => {
  let t: TestApp;
  let recorder: RecordingListener;
  let counter: CreatedCounter;
  before(async () => {
    t = await startTestApp({ extensions: [RecordingExtensionModule] });
    recorder = t.app.get(RecordingListener);
    counter = t.app.get(CreatedCounter);
  });
  after(async () => {
    // This run's later apps have no such listener: their changes need not record events for it.
    await db().query(`DELETE FROM case_event_listeners WHERE listener IN ('test-recorder', 'test-created-counter')`);
    await t.close();
    await closeDb();
  });

  const about = (caseId: number) => recorder.received.filter((r) => r.event.case_id === caseId);
  const shape = (r: Received) => [r.event.type, r.event.status.from, r.event.status.to];

  function receivedOf(caseId: number, type: CaseEventType, count = 1): Promise<Received[]> {
    return waitFor(`${count} ${type} of case ${caseId}`, () => about(caseId).filter((r) => r.event.type === type).length >= count && about(caseId), {
      describe: () => about(caseId).map(shape),
    });
  }

  it('receives created, moved and closed after each change committed, in order, as plain data', async () => {
    const f = await givenCasesWorkflow(t);
    const caseId = await createdCaseId(f, { subject: 'Broken box' });
    assert.equal((await patchCase(f, caseId, { status: 'Triage' })).status, 200);
    assert.equal((await patchCase(f, caseId, { status: 'Closed' })).status, 200);
    const received = await receivedOf(caseId, 'case.closed');
    assert.deepEqual(received.map(shape), [
      ['case.created', null, 'Open'],
      ['case.status_changed', 'Open', 'Triage'],
      ['case.status_changed', 'Triage', 'Closed'],
      ['case.closed', 'Triage', 'Closed'],
    ]);
    assert.ok(received.every((r) => r.committed), 'no listener ran before its change committed');
    const closed = received.at(-1)!.event;
    const shown = await getCase(f, caseId);
    assert.deepEqual(closed.case, shown.body.case, 'the case as the API shows it right after the change');
    assert.deepEqual([closed.organization_id, closed.workflow_id, closed.case_id, closed.attempt], [f.org.id, f.workflowId, caseId, 1]);
    assert.match(closed.occurred_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(new Set(received.map((r) => r.event.id)).size, 4, 'each event has an id of its own');
  });

  it('receives errored when a run fails and the engine parks the case in Error', async () => {
    const f = await givenCasesWorkflow(t, statusDefinition({ automations: { Open: [{ fail: 'no CRM for this customer' }] } }));
    const caseId = await createdCaseId(f);
    const received = await receivedOf(caseId, 'case.errored');
    assert.deepEqual(received.map(shape), [
      ['case.created', null, 'Open'],
      ['case.status_changed', 'Open', 'Error'],
      ['case.errored', 'Open', 'Error'],
    ]);
  });

  it('gives an event again after the listener threw, with the same id, while the other listener got it once', async () => {
    const f = await givenCasesWorkflow(t);
    const caseId = await createdCaseId(f, { subject: 'flaky' });
    const received = await receivedOf(caseId, 'case.created', 2);
    assert.deepEqual(received.map((r) => r.event.attempt), [1, 2]);
    assert.equal(received[0]!.event.id, received[1]!.event.id);
    assert.deepEqual(counter.received.filter((e) => e.case_id === caseId).map((e) => e.attempt), [1], 'the other listener did not wait for, or repeat with, the one that threw');
    await waitFor('the handled events\' rows gone', async () => {
      const { rows } = await db().query(`SELECT listener, state, attempts, last_error FROM case_event_handlings WHERE case_id = $1`, [caseId]);
      return rows.length === 0;
    });
  });

  it('records no event of a case whose transaction rolled back', async () => {
    const f = await givenCasesWorkflow(t);
    const kept = await createdCaseId(f, { subject: 'held back' });
    // A claim of the key the request will use, held uncommitted: the request stores its case
    // (its statement writes the events), then waits for the key, finds it taken and rolls back.
    const holder = await db().connect();
    let refused;
    try {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO idempotency_keys (organization_id, key, request_hash, case_id) VALUES ($1, 'held', $2, $3)`, [f.org.id, randomBytes(32), kept]);
      const request = postCase(f, { subject: 'held back' }, { 'idempotency-key': 'held' });
      // Asked on another connection: inside the holder's transaction pg_stat_activity stays as first read.
      await waitFor('the request to wait for the held key after storing its case', async () => {
        const { rows } = await db().query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO idempotency_keys%'`);
        return rows.length > 0;
      });
      await holder.query('COMMIT');
      refused = await request;
    } finally {
      holder.release();
    }
    assert.equal(refused.status, 422, refused.text);
    // The listener never handles these cases' events, so every one written is still there.
    const { rows } = await db().query(`SELECT case_id::int AS id, type FROM case_event_handlings WHERE workflow_id = $1 AND listener = 'test-recorder'`, [f.workflowId]);
    assert.deepEqual(rows, [{ id: kept, type: 'case.created' }], 'only the committed case has events');
    await receivedOf(kept, 'case.created');
    assert.deepEqual(new Set(recorder.received.filter((r) => r.event.workflow_id === f.workflowId).map((r) => r.event.case_id)), new Set([kept]));
  });
});

describe('case-event listeners: names', () => {
  @CaseEventListener()
  @Injectable()
  class TicketListener implements CaseEventHandler {
    readonly name = 'tickets';
    readonly events: CaseEventType[] = ['case.created'];
    async handle(): Promise<void> {}
  }

  @CaseEventListener()
  @Injectable()
  class OtherTicketListener implements CaseEventHandler {
    readonly name = 'tickets';
    readonly events: CaseEventType[] = ['case.closed'];
    async handle(): Promise<void> {}
  }

  @Module({ providers: [TicketListener, OtherTicketListener] })
  class ClashingExtensionModule {
    static readonly apiVersion = '1.0.0';
  }

  it('two listeners with one name stop the start with a message naming both', async () => {
    const env = validateEnv({ ...process.env });
    await assert.rejects(
      createApp(env, createLogger('silent'), { extensions: [ClashingExtensionModule] }),
      { message: 'two case-event listeners are named "tickets": TicketListener and OtherTicketListener; rename one of them' },
    );
  });
});
