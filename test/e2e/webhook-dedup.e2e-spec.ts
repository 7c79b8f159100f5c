/**
 * Opt-in de-duplication of webhook deliveries (workflows-and-automation.md, last section):
 * `webhook_dedup` validated like the rest of a definition, in force once published; a delivery
 * whose key a case of the workflow took within the window answers 200 with that case and
 * stores, starts, counts and emits nothing; concurrent duplicates make one case; an expired key
 * makes a new one. Keys are aged with SQL, never by waiting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertValidationError } from '../support/foundation-assertions.js';
import { closeDb, db, startTestApp, transactionsStoring, type InjectResult, type TestApp } from '../support/test-app.js';
import { countCases, createdCaseId, directDefinition, fetchCase, givenWebhook, postWebhook, type WebhookWorkflow } from '../support/webhook-helpers.js';

const WORKFLOWS = '/api/admin/v1/workflows';

/** A direct workflow whose Open run sets one attribute, so that each case starts (and counts) a run. */
function dedupDefinition(webhookDedup: unknown = { key: '/delivery_id' }): Record<string, unknown> {
  return directDefinition({ automations: { Open: [{ set_attributes: { seen: true } }] }, webhook_dedup: webhookDedup });
}

/** The id of the earlier case a duplicate delivery names, checking the whole answer text. */
function duplicateOf(res: InjectResult): number {
  assert.equal(res.status, 200, res.text);
  const match = /^\{"case":\{"id":([1-9][0-9]*),"source_type":"Webhook"\},"duplicate":true\}$/.exec(res.text);
  assert.ok(match, `unexpected duplicate answer: ${res.text}`);
  return Number(match[1]);
}

async function countRows(sql: string, workflowId: number): Promise<number> {
  return (await db().query(sql, [workflowId])).rows[0].n;
}
const countRuns = (workflowId: number) => countRows('SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id = $1', workflowId);
const countCreatedEvents = (workflowId: number) =>
  countRows(`SELECT count(*)::int AS n FROM case_events e JOIN cases c ON c.id = e.case_id WHERE c.workflow_id = $1 AND e.type = 'created'`, workflowId);

/** Moves the workflow's stored delivery keys `seconds` into the past. */
async function ageKeys(workflowId: number, seconds: number): Promise<void> {
  const { rowCount } = await db().query(`UPDATE webhook_dedup_keys SET created_at = created_at - $2 * interval '1 second' WHERE workflow_id = $1`, [workflowId, seconds]);
  assert.ok(rowCount! > 0, 'the workflow has stored keys');
}

describe('webhook de-duplication (webhook_dedup)', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  const post = (w: WebhookWorkflow, body: unknown) => postWebhook(t, w.workflowId, w.token, body);
  const admin = (w: WebhookWorkflow, method: string, path: string, body?: unknown) => t.request(method, `${WORKFLOWS}/${w.workflowId}${path}`, { token: w.org.adminToken, body });
  const liveUsage = async (w: WebhookWorkflow) => {
    const res = await t.request('GET', '/api/admin/v1/usage?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z', { token: w.org.adminToken });
    assert.equal(res.status, 200, res.text);
    return res.body.usage.workflows.find((row: { workflow_id: number }) => row.workflow_id === w.workflowId)?.live;
  };

  describe('the setting in a definition', () => {
    it('is shown with its default window filled in, and as null when not set', async () => {
      const w = await givenWebhook(t, dedupDefinition());
      const read = await admin(w, 'GET', '');
      assert.deepEqual(read.body.workflow.webhook_dedup, { key: '/delivery_id', window_seconds: 86_400 });
      const plain = await givenWebhook(t);
      assert.equal((await admin(plain, 'GET', '')).body.workflow.webhook_dedup, null);
    });

    const INVALID: [string, unknown, string[]][] = [
      ['a key that is not a JSON Pointer', { key: 'delivery_id' }, ['/webhook_dedup/key']],
      ['a missing key', { window_seconds: 600 }, ['/webhook_dedup/key']],
      ['a window under 60 seconds', { key: '/id', window_seconds: 59 }, ['/webhook_dedup/window_seconds']],
      ['a window over 604800 seconds', { key: '/id', window_seconds: 604_801 }, ['/webhook_dedup/window_seconds']],
      ['an unknown key', { key: '/id', per: 'org' }, ['/webhook_dedup/per']],
      ['a setting that is not an object', true, ['/webhook_dedup']],
    ];
    for (const [label, setting, paths] of INVALID) {
      it(`POST and PUT with ${label} are a 422 at ${paths.join(', ')} and store nothing`, async () => {
        const w = await givenWebhook(t);
        const stored = await admin(w, 'GET', '');
        const created = await t.request('POST', WORKFLOWS, { token: w.org.adminToken, body: dedupDefinition(setting) });
        assert.deepEqual(assertValidationError(created, 'workflow_definition_invalid'), paths);
        const replaced = await admin(w, 'PUT', '', dedupDefinition(setting));
        assert.deepEqual(assertValidationError(replaced, 'workflow_definition_invalid'), paths);
        assert.deepEqual((await admin(w, 'GET', '')).body, stored.body);
      });
    }

    it('is refused on a workflow that takes no webhook deliveries', async () => {
      const w = await givenWebhook(t);
      const res = await t.request('POST', WORKFLOWS, { token: w.org.adminToken, body: { ...dedupDefinition(), case_source: 'email' } });
      assert.deepEqual(assertValidationError(res, 'workflow_definition_invalid'), ['/webhook_dedup']);
    });

    it('takes effect when published, like every definition change, and ends the same way', async () => {
      const w = await givenWebhook(t);
      const delivery = { delivery_id: 'evt-1' };
      assert.equal((await admin(w, 'PUT', '', dedupDefinition())).status, 200);
      const [a, b] = [createdCaseId(await post(w, delivery)), createdCaseId(await post(w, delivery))];
      assert.notEqual(a, b, 'a draft is not in force');

      assert.equal((await admin(w, 'POST', '/publish')).status, 200);
      const c = createdCaseId(await post(w, delivery));
      assert.equal(duplicateOf(await post(w, delivery)), c);

      assert.equal((await admin(w, 'PUT', '', directDefinition())).status, 200);
      assert.equal((await admin(w, 'POST', '/publish')).status, 200);
      createdCaseId(await post(w, delivery));
      assert.equal(await countCases(w.workflowId), 4);
    });
  });

  describe('deliveries', () => {
    it('answers a duplicate 200 with the first case, which keeps its attributes; nothing else is stored, started or counted', async () => {
      const w = await givenWebhook(t, dedupDefinition());
      const first = createdCaseId(await post(w, { delivery_id: 'evt-42', attempt: 1 }));
      assert.equal(duplicateOf(await post(w, { delivery_id: 'evt-42', attempt: 2 })), first);
      assert.equal(duplicateOf(await post(w, '{"attempt": 3, "delivery_id":"evt-42"}')), first);

      assert.equal(await countCases(w.workflowId), 1);
      assert.equal(await countRuns(w.workflowId), 1);
      assert.equal(await countCreatedEvents(w.workflowId), 1);
      assert.deepEqual(await liveUsage(w), { cases: 1, runs: 1 });
      assert.equal((await fetchCase(t, w, first)).body.case.attributes.attempt, 1);
    });

    it('makes one case and counts it once for 20 concurrent duplicates', async () => {
      const w = await givenWebhook(t, dedupDefinition());
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(w, { delivery_id: 'burst', copy: i })));
      const created = answers.filter((res) => res.status === 201).map(createdCaseId);
      assert.equal(created.length, 1, `one 201 among ${answers.map((res) => res.status).join(' ')}`);
      for (const res of answers.filter((r) => r.status !== 201)) assert.equal(duplicateOf(res), created[0]);

      assert.equal(await countCases(w.workflowId), 1);
      assert.equal(await countRuns(w.workflowId), 1);
      assert.deepEqual(await liveUsage(w), { cases: 1, runs: 1 });
    });

    it('makes a case per key: different strings, a string and the integer of the same digits, integers beyond 2^53', async () => {
      const w = await givenWebhook(t, dedupDefinition());
      const keys = ['"a"', '"b"', '"7"', '7', '12345678901234567890', '12345678901234567891', '"\\u0061"'];
      const ids = [];
      for (const key of keys) ids.push(createdCaseId(await post(w, `{"delivery_id": ${key}}`)));
      assert.equal(new Set(ids).size, keys.length);
      for (const [i, key] of keys.entries()) assert.equal(duplicateOf(await post(w, `{"delivery_id":${key}}`)), ids[i], key);
      assert.equal(await countCases(w.workflowId), keys.length);
    });

    it('follows a nested pointer', async () => {
      const w = await givenWebhook(t, dedupDefinition({ key: '/event/id' }));
      const first = createdCaseId(await post(w, { event: { id: 991, type: 'paid' } }));
      assert.equal(duplicateOf(await post(w, { event: { type: 'paid', id: 991 } })), first);
      createdCaseId(await post(w, { event: { id: 992 } }));
    });

    it('makes a new case of every delivery without a value at the key, or with one that is not a string or an integer', async () => {
      const w = await givenWebhook(t, dedupDefinition());
      const bodies = [{}, {}, { other: 'x' }, { delivery_id: null }, { delivery_id: null }, { delivery_id: 1.5 }, { delivery_id: 1.5 }, { delivery_id: true }, { delivery_id: { id: 1 } }, { delivery_id: [1] }];
      for (const body of bodies) createdCaseId(await post(w, body));
      assert.equal(await countCases(w.workflowId), bodies.length);
      assert.equal(await countRows('SELECT count(*)::int AS n FROM webhook_dedup_keys WHERE workflow_id = $1', w.workflowId), 0);
    });

    it('keeps the default of a workflow without the setting: a case per POST, and no key stored', async () => {
      const w = await givenWebhook(t);
      const a = createdCaseId(await post(w, { delivery_id: 'same' }));
      const b = createdCaseId(await post(w, { delivery_id: 'same' }));
      assert.notEqual(a, b);
      assert.equal(await countRows('SELECT count(*)::int AS n FROM webhook_dedup_keys WHERE workflow_id = $1', w.workflowId), 0);
    });

    it('stores deliveries with a key in transactions of their own, where plain ones arriving together share them', async () => {
      const keyed = await givenWebhook(t, dedupDefinition());
      const plain = await givenWebhook(t);
      const together = async (w: WebhookWorkflow, prefix: string) =>
        (await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => post(w, { delivery_id: `${prefix}${n}` })))).map(createdCaseId);
      // Keyed deliveries claim their keys in their own transaction: two batches claiming the same keys in different orders could deadlock.
      const plainTransactions = await transactionsStoring(await together(plain, 'plain-'));
      assert.ok(plainTransactions < 8, `plain deliveries in ${plainTransactions} transactions`);
      assert.equal(await transactionsStoring(await together(keyed, 'keyed-')), 8);
    });

    it('scopes keys to their workflow', async () => {
      const w = await givenWebhook(t, dedupDefinition());
      const other = await givenWebhook(t, dedupDefinition());
      createdCaseId(await post(w, { delivery_id: 'shared' }));
      createdCaseId(await post(other, { delivery_id: 'shared' }));
    });

    it('refuses an invalid duplicate as it would a new delivery (422), and answers a valid one', async () => {
      const w = await givenWebhook(t, { ...dedupDefinition(), attributes: { amount: { type: 'integer' } } });
      const first = createdCaseId(await post(w, { delivery_id: 'v', amount: 1 }));
      assert.deepEqual(assertValidationError(await post(w, { delivery_id: 'v', amount: 'one' })), ['/amount']);
      assert.equal(duplicateOf(await post(w, { delivery_id: 'v', amount: 1 })), first);
    });
  });

  describe('the window', () => {
    it('ends: a key older than the window makes a new case, which then holds the key', async () => {
      const w = await givenWebhook(t, dedupDefinition({ key: '/delivery_id', window_seconds: 60 }));
      const first = createdCaseId(await post(w, { delivery_id: 'w' }));
      await ageKeys(w.workflowId, 30);
      assert.equal(duplicateOf(await post(w, { delivery_id: 'w' })), first, 'inside the window');
      await ageKeys(w.workflowId, 31);
      const second = createdCaseId(await post(w, { delivery_id: 'w' }));
      assert.notEqual(second, first);
      assert.equal(duplicateOf(await post(w, { delivery_id: 'w' })), second);
      assert.equal(await countRuns(w.workflowId), 2);
      assert.deepEqual(await liveUsage(w), { cases: 2, runs: 2 });
    });

    it('lets exactly one of 20 concurrent deliveries take over an expired key', async () => {
      const w = await givenWebhook(t, dedupDefinition({ key: '/delivery_id', window_seconds: 60 }));
      createdCaseId(await post(w, { delivery_id: 'x' }));
      await ageKeys(w.workflowId, 61);
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(w, { delivery_id: 'x' })));
      const created = answers.filter((res) => res.status === 201).map(createdCaseId);
      assert.equal(created.length, 1, `one 201 among ${answers.map((res) => res.status).join(' ')}`);
      for (const res of answers.filter((r) => r.status !== 201)) assert.equal(duplicateOf(res), created[0]);
      assert.equal(await countCases(w.workflowId), 2);
    });

    it('is the one of the version in force when the delivery comes', async () => {
      const w = await givenWebhook(t, dedupDefinition({ key: '/delivery_id', window_seconds: 60 }));
      const first = createdCaseId(await post(w, { delivery_id: 'v' }));
      await ageKeys(w.workflowId, 120);
      assert.equal((await admin(w, 'PUT', '', dedupDefinition({ key: '/delivery_id', window_seconds: 3600 }))).status, 200);
      assert.equal((await admin(w, 'POST', '/publish')).status, 200);
      assert.equal(duplicateOf(await post(w, { delivery_id: 'v' })), first);
    });
  });
});
