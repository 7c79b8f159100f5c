/**
 * ListenerHandlingRepository against the real Postgres: which handlings a relay takes (its
 * process's listeners, a case's in order), how an attempt claims and ends one, and how work a
 * dead worker held or a lost job left is taken again.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { HandlingRef } from '../../src/modules/case-events/domain/listener-handlings.js';
import { ListenerHandlingRepository } from '../../src/modules/case-events/infrastructure/listener-handling.repository.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { closeDb, db } from '../support/test-app.js';

const ORGANIZATION = 900_000 + Math.floor(Math.random() * 100_000);

/** Stores a pending handling as a case's statement would, and returns it. */
async function stored(listener: string, caseId: number, type = 'case.created'): Promise<HandlingRef> {
  const { rows } = await db().query(
    `INSERT INTO case_event_handlings (organization_id, listener, case_id, workflow_id, type, payload)
     VALUES ($1, $2, $3, 1, $4, '{"status": "Open"}') RETURNING id`,
    [ORGANIZATION, listener, caseId, type],
  );
  return { organizationId: ORGANIZATION, id: Number(rows[0].id) };
}

describe('case-event handlings (integration)', () => {
  let ctx: IntegrationContext;
  let handlings: ListenerHandlingRepository;
  const ids = (refs: HandlingRef[]) => refs.map((r) => r.id);
  /** A listener name no other test uses, so relays of other tests never see its rows. */
  const newListener = () => `it-${randomBytes(4).toString('hex')}`;

  before(async () => {
    ctx = await startIntegrationContext();
    handlings = ctx.get(ListenerHandlingRepository);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  it('hands over only its listeners\' handlings, and of one case only the earliest still pending', async () => {
    const [mine, other] = [newListener(), newListener()];
    const first = await stored(mine, 1);
    const second = await stored(mine, 1, 'case.closed');
    const elsewhere = await stored(mine, 2);
    await stored(other, 1);
    assert.deepEqual(ids(await handlings.takeNew(10, [mine])), ids([first, elsewhere]));
    assert.deepEqual(await handlings.takeNew(10, [mine]), [], 'what was handed over is not taken as new again');
    const claimed = (await handlings.claim(first, 6_000, [mine]))!;
    await handlings.recordHandled(claimed);
    assert.deepEqual(ids(await handlings.takeNew(10, [mine])), ids([second]));
  });

  it('claims for one attempt at a time, only for a listener this process runs, and keeps a failure\'s error', async () => {
    const listener = newListener();
    const ref = await stored(listener, 3);
    assert.equal(await handlings.claim(ref, 6_000, ['someone-else']), null);
    const claimed = (await handlings.claim(ref, 6_000, [listener]))!;
    assert.deepEqual([claimed.listener, claimed.event.attempt, claimed.event.status], [listener, 1, { from: null, to: 'Open' }]);
    assert.equal(await handlings.claim(ref, 6_000, [listener]), null, 'held under its lease');
    await handlings.recordFailure(claimed, 'down', false);
    const again = (await handlings.claim(ref, 6_000, [listener]))!;
    assert.equal(again.event.attempt, 2);
    await handlings.recordFailure(again, 'still down', true);
    const { rows } = await db().query('SELECT state, attempts, last_error, finished_at IS NOT NULL AS finished FROM case_event_handlings WHERE id = $1', [ref.id]);
    assert.deepEqual(rows, [{ state: 'failed', attempts: 2, last_error: 'still down', finished: true }]);
    assert.equal(await handlings.claim(ref, 6_000, [listener]), null, 'a failed handling is never tried again');
  });

  it('takes again a handling whose worker died mid-attempt, and one whose job was lost', async () => {
    const listener = newListener();
    const held = await stored(listener, 4);
    const lost = await stored(listener, 5);
    assert.equal((await handlings.takeNew(10, [listener])).length, 2);
    await handlings.claim(held, 50, [listener]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(ids(await handlings.takeExpired(10, [listener])), ids([held]));
    assert.deepEqual(ids(await handlings.takeStale(10, [listener], 60_000)), [], 'nothing handed over within the grace');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(ids(await handlings.takeStale(10, [listener], 50)), ids([held, lost]));
    await handlings.untake([lost]);
    assert.deepEqual(ids(await handlings.takeNew(10, [listener])), ids([lost]), 'what Redis refused is new again');
  });
});
