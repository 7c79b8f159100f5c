import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWorkflow, generateWebhook, operatorToken, sampleDefinition } from '../support/scenario.js';
import { closeDb, db, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';
import {
  assertErrorBody,
  assertRefused,
  countCases,
  createdCaseId,
  directDefinition,
  escapeRegExp,
  fetchCase,
  givenWebhook,
  objectOfBytes,
  objectWithKeys,
  postWebhook,
  rawAttributesText,
  rawJsonAt,
  roundTrip,
  sameJsonb,
  webhookPath,
  type WebhookWorkflow,
} from '../support/webhook-helpers.js';

const MAX_BODY_BYTES = 1_048_576;

describe('incoming webhook intake', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  const post = (w: WebhookWorkflow, body: unknown = { event: 'ping' }) => postWebhook(t, w.workflowId, w.token, body);
  const adminPost = (w: WebhookWorkflow, action: string, body?: unknown) =>
    t.request('POST', `/api/admin/v1/workflows/${w.workflowId}/${action}`, { token: w.org.adminToken, body });

  /** Refused with 401 and nothing was stored on the workflow. */
  async function assertRefusedWithoutCase(res: InjectResult, w: WebhookWorkflow, casesBefore = 0) {
    assertRefused(res, w.token);
    assert.equal(await countCases(w.workflowId), casesBefore);
  }

  describe('401 unless the token is the one of a published direct workflow in the path', () => {
    it('refuses a missing token', async () => {
      const w = await givenWebhook(t);
      await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, undefined, { a: 1 }), w);
    });

    it('refuses an empty token', async () => {
      const w = await givenWebhook(t);
      await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, '', { a: 1 }), w);
    });

    it('refuses a wrong token of the right shape', async () => {
      const w = await givenWebhook(t);
      await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, `whk_${'A'.repeat(43)}`, { a: 1 }), w);
    });

    it("refuses the right token on another workflow's path, of the same or another organization", async () => {
      const w = await givenWebhook(t);
      const sibling = await createWorkflow(t, w.org, directDefinition({ name: 'Sibling' }));
      const siblingToken = (await generateWebhook(t, w.org, sibling)).token;
      const stranger = await givenWebhook(t);
      await assertRefusedWithoutCase(await postWebhook(t, sibling, w.token, { a: 1 }), { ...w, workflowId: sibling });
      await assertRefusedWithoutCase(await postWebhook(t, stranger.workflowId, w.token, { a: 1 }), stranger);
      await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, siblingToken, { a: 1 }), w);
      createdCaseId(await postWebhook(t, sibling, siblingToken, { a: 1 }));
    });

    it('refuses a workflow id that is not a plain positive integer, even with the right token', async () => {
      const w = await givenWebhook(t);
      const id = w.workflowId;
      for (const bad of ['abc', `${id}.0`, `0${id}`, `-${id}`, `+${id}`, `${id}abc`, `${id}%20`, '0', '99999999999999999999']) {
        const res = await postWebhook(t, bad, w.token, { a: 1 });
        assert.equal(res.status, 401, `workflow id ${bad}: ${res.text}`);
        assertRefused(res, w.token);
      }
      assert.equal(await countCases(id), 0);
    });

    it('refuses a workflow that was never published (it cannot even get a webhook URL)', async () => {
      const w = await givenWebhook(t);
      const draftOnly = await createWorkflow(t, w.org, directDefinition({ name: 'Draft only' }), false);
      const generate = await t.request('POST', `/api/admin/v1/workflows/${draftOnly}/webhook`, { token: w.org.adminToken });
      assert.equal(generate.status, 422, generate.text);
      await assertRefusedWithoutCase(await postWebhook(t, draftOnly, w.token, { a: 1 }), { ...w, workflowId: draftOnly });
    });

    it('refuses a workflow whose latest published version is not direct (a draft alone changes nothing)', async () => {
      const w = await givenWebhook(t);
      const ticketing = directDefinition({ case_source: 'ticketing' });
      const put = await t.request('PUT', `/api/admin/v1/workflows/${w.workflowId}`, { token: w.org.adminToken, body: ticketing });
      assert.equal(put.status, 200, put.text);
      createdCaseId(await post(w));
      assert.equal((await adminPost(w, 'publish')).status, 200);
      await assertRefusedWithoutCase(await post(w), w, 1);
    });

    it('answers every cause with the same body, so a caller cannot tell them apart', async () => {
      const w = await givenWebhook(t);
      const other = await givenWebhook(t);
      const refusals = await Promise.all([
        postWebhook(t, w.workflowId, undefined, {}),
        postWebhook(t, w.workflowId, '', {}),
        postWebhook(t, w.workflowId, other.token, {}),
        postWebhook(t, 'abc', w.token, {}),
        postWebhook(t, w.workflowId + 1_000_000, w.token, {}),
      ]);
      for (const res of refusals) assertRefused(res, w.token);
      assert.equal(new Set(refusals.map((r) => r.text)).size, 1, refusals.map((r) => r.text).join('\n'));
    });

    it('tells a caller without a valid token nothing about the body (401 before 413 and 422)', async () => {
      const w = await givenWebhook(t);
      for (const body of ['{"a":', '[1]', objectWithKeys(1001)]) {
        await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, 'wrong', body), w);
      }
    });

    it('ignores an Authorization header: garbage does not hurt, a valid API or admin token does not replace the webhook token', async () => {
      const w = await givenWebhook(t);
      createdCaseId(await postWebhook(t, w.workflowId, w.token, { a: 1 }, { headers: { authorization: 'Bearer garbage' } }));
      for (const credential of [w.apiToken, w.org.adminToken]) {
        const headers = { authorization: `Bearer ${credential}` };
        await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, undefined, { a: 1 }, { headers }), w, 1);
        await assertRefusedWithoutCase(await postWebhook(t, w.workflowId, 'wrong', { a: 1 }, { headers }), w, 1);
      }
    });

    it('grants nothing but case creation: the webhook token cannot read cases through the cases API', async () => {
      const w = await givenWebhook(t);
      const id = createdCaseId(await post(w));
      const read = await t.request('GET', `${w.casesPath}/${id}`, { token: w.token });
      assertRefused(read, w.token);
    });
  });

  describe('413 beyond 1 MB or 1,000 top-level keys', () => {
    it(`accepts a body of exactly ${MAX_BODY_BYTES} bytes and keeps it whole`, async () => {
      const w = await givenWebhook(t);
      const body = objectOfBytes(MAX_BODY_BYTES);
      assert.ok(await sameJsonb(await roundTrip(t, w, body), body));
    });

    it(`refuses ${MAX_BODY_BYTES + 1} bytes, counting bytes rather than characters, and stores nothing`, async () => {
      const w = await givenWebhook(t);
      for (const body of [objectOfBytes(MAX_BODY_BYTES + 1), objectOfBytes(MAX_BODY_BYTES + 1, 'é')]) {
        assertErrorBody(await post(w, body), 413, [w.token]);
      }
      assert.equal(await countCases(w.workflowId), 0);
    });

    it('refuses 1,001 top-level keys and stores nothing', async () => {
      const w = await givenWebhook(t);
      assertErrorBody(await post(w, objectWithKeys(1001)), 413, [w.token]);
      assert.equal(await countCases(w.workflowId), 0);
    });

    it('accepts exactly 1,000 top-level keys and keeps them all', async () => {
      const w = await givenWebhook(t);
      const body = objectWithKeys(1000);
      const attributes = await roundTrip(t, w, body);
      assert.equal(Object.keys(JSON.parse(attributes)).length, 1000);
      assert.ok(await sameJsonb(attributes, body));
    });
  });

  describe('422 and no case when the body is not a valid JSON object', () => {
    const notAnObject: [string, string][] = [
      ['a JSON array', '[{"a":1}]'],
      ['a JSON string', '"x"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
      ['malformed JSON', '{"a":'],
      ['JSON followed by garbage', '{"a":1} x'],
      ['an empty body', ''],
      ['a blank body', '  \n '],
    ];
    for (const [name, body] of notAnObject) {
      it(`refuses ${name}`, async () => {
        const w = await givenWebhook(t);
        const res = await post(w, body);
        assertErrorBody(res, 422, [w.token]);
        assert.equal(await countCases(w.workflowId), 0);
      });
    }

    it('refuses an empty body sent without a Content-Type', async () => {
      const w = await givenWebhook(t);
      assertErrorBody(await postWebhook(t, w.workflowId, w.token, '', { contentType: null }), 422, [w.token]);
      assert.equal(await countCases(w.workflowId), 0);
    });

    /** Posts `body` to a fresh webhook of `definition`: a 422 listing exactly these paths, and no case. */
    async function assertAttributesInvalid(definition: Record<string, unknown>, body: unknown, paths: string[], message: RegExp) {
      const w = await givenWebhook(t, definition);
      const res = await post(w, body);
      assertErrorBody(res, 422, [w.token]);
      assert.deepEqual(Object.keys(res.body).sort(), ['error', 'validation_errors']);
      assert.equal(res.body.error, 'attributes_validation_failed');
      assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), paths, res.text);
      for (const problem of res.body.validation_errors) assert.match(problem.error, message);
      assert.equal(await countCases(w.workflowId), 0);
    }

    it('refuses a body missing a required attribute (path "")', async () => {
      await assertAttributesInvalid(sampleDefinition(), { amount: 1 }, [''], /customer_email/);
    });

    it('refuses a required attribute sent as null (path "/customer_email")', async () => {
      await assertAttributesInvalid(sampleDefinition(), { customer_email: null }, ['/customer_email'], /null|string/);
    });

    it('refuses a declared attribute of the wrong type (path "/amount")', async () => {
      await assertAttributesInvalid(sampleDefinition(), { customer_email: 'a@b.co', amount: '12.5' }, ['/amount'], /number/);
    });

    it('refuses an undeclared key on a sensitive workflow, at the key\'s own JSON Pointer', async () => {
      const sensitive = sampleDefinition({ sensitive_data: true });
      await assertAttributesInvalid(sensitive, { customer_email: 'a@b.co', 'card/no~x': '4111' }, ['/card~1no~0x'], /card\/no~x/);
    });
  });

  describe('201 and the case it creates', () => {
    it('answers exactly {"case":{"id":<int>,"source_type":"Webhook"}} with a JSON content type', async () => {
      const w = await givenWebhook(t);
      const res = await post(w);
      const id = createdCaseId(res);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const { rows } = await db().query('SELECT workflow_id, source FROM cases WHERE id = $1', [id]);
      assert.deepEqual(rows, [{ workflow_id: String(w.workflowId), source: 'Webhook' }]);
    });

    it('creates an Open live case with a Webhook subject and exactly the posted attributes', async () => {
      const name = 'Orders (EU) + returns?';
      const w = await givenWebhook(t, sampleDefinition({ name }));
      const posted = { customer_email: 'a@b.co', priority: 2, vip: null, order: { lines: [{ sku: 'A-1', qty: 3 }] }, extra: 'kept' };
      const startedAt = utcStamp(new Date());
      const id = createdCaseId(await post(w, posted));
      const finishedAt = utcStamp(new Date());

      const read = await fetchCase(t, w, id);
      const { attributes, subject, status, outcome, mode, workflow_id } = read.body.case;
      assert.deepEqual(attributes, posted);
      assert.deepEqual({ id: read.body.case.id, workflow_id, status, outcome, mode }, { id, workflow_id: w.workflowId, status: 'Open', outcome: null, mode: 'live' });
      const stamp = new RegExp(`^${escapeRegExp(name)} via Webhook - (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) UTC$`).exec(subject);
      assert.ok(stamp, subject);
      assert.ok(startedAt <= stamp[1]! && stamp[1]! <= finishedAt, `${subject} is not between ${startedAt} and ${finishedAt} UTC`);

      const list = await t.request('GET', `/api/admin/v1/cases?workflow_id=${w.workflowId}`, { token: w.org.adminToken });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.cases.map((c: Record<string, unknown>) => [c.id, c.source_type, c.mode, c.status]),
        [[id, 'Webhook', 'live', 'Open']],
      );
      const filtered = await t.request('GET', `/api/admin/v1/cases?workflow_id=${w.workflowId}&source=Webhook`, { token: w.org.adminToken });
      assert.deepEqual(filtered.body.cases.map((c: { id: number }) => c.id), [id]);
    });

    it('creates a new case for every request, identical retries included', async () => {
      const w = await givenWebhook(t);
      const body = { event_id: 'evt_1', action: 'created' };
      const first = createdCaseId(await post(w, body));
      const second = createdCaseId(await post(w, body));
      assert.notEqual(first, second);
      assert.equal(await countCases(w.workflowId), 2);
    });

    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      it(`reads a JSON object sent with ${contentType === null ? 'no Content-Type' : `Content-Type ${contentType}`}`, async () => {
        const w = await givenWebhook(t);
        const posted = { sent_as: String(contentType), n: 1 };
        const id = createdCaseId(await postWebhook(t, w.workflowId, w.token, posted, { contentType }));
        assert.deepEqual(JSON.parse(rawAttributesText((await fetchCase(t, w, id)).text)), posted);
      });
    }

    it('keeps the same URL across later versions of the workflow', async () => {
      const w = await givenWebhook(t);
      const put = await t.request('PUT', `/api/admin/v1/workflows/${w.workflowId}`, { token: w.org.adminToken, body: directDefinition({ name: 'Renamed' }) });
      assert.equal(put.status, 200, put.text);
      assert.equal((await adminPost(w, 'publish')).status, 200);
      const read = await fetchCase(t, w, createdCaseId(await post(w)));
      assert.match(read.body.case.subject, /^Renamed via Webhook - /);
    });
  });

  describe('rotation and unpublishing take effect at once', () => {
    it('refuses the old token right after an operator rotation and accepts the new one', async () => {
      const w = await givenWebhook(t);
      createdCaseId(await post(w));
      const rotated = await t.request('POST', `/api/operator/v1/workflows/${w.workflowId}/webhook/rotate`, { token: operatorToken() });
      assert.equal(rotated.status, 200, rotated.text);
      const { url, token } = rotated.body.webhook;
      assert.notEqual(token, w.token);
      assert.equal(new URL(url).pathname + new URL(url).search, webhookPath(w.workflowId, token));
      await assertRefusedWithoutCase(await post(w), w, 1);
      createdCaseId(await postWebhook(t, w.workflowId, token, { a: 1 }));
      const shown = await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken });
      assert.equal(shown.body.webhook.token, token);
    });

    it('refuses the token right after the workflow is unpublished', async () => {
      const w = await givenWebhook(t);
      createdCaseId(await post(w));
      assert.equal((await adminPost(w, 'unpublish')).status, 200);
      await assertRefusedWithoutCase(await post(w), w, 1);
    });
  });

  describe('the attributes come back exactly as posted', () => {
    /** Posts `body` to a fresh webhook; the attributes text the cases API returns, checked equal as jsonb. */
    async function postAndRead(body: string): Promise<string> {
      const attributes = await roundTrip(t, await givenWebhook(t), body);
      assert.ok(await sameJsonb(attributes, body), attributes);
      assert.deepEqual(JSON.parse(attributes), JSON.parse(body));
      return attributes;
    }

    it('keeps big integers and long decimals digit for digit', async () => {
      const numbers: [(string | number)[], string][] = [
        [['big'], '123456789012345678901234567890'],
        [['negative_big'], '-98765432109876543210987654321'],
        [['long_decimal'], '3.14159265358979323846264338327950288419716939937510'],
        [['tiny'], '0.000000000000000000000000000000000001'],
        [['trailing_zero'], '1.50'],
        [['nested', 'list', 0], '9007199254740993'],
        [['nested', 'list', 1, 'deep'], '-0.1000000000000000055511151231257827'],
      ];
      const body = `{"big":${numbers[0]![1]},"negative_big":${numbers[1]![1]},"long_decimal":${numbers[2]![1]},"tiny":${numbers[3]![1]},`
        + `"trailing_zero":${numbers[4]![1]},"nested":{"list":[${numbers[5]![1]},{"deep":${numbers[6]![1]}}]}}`;
      const attributes = await postAndRead(body);
      for (const [path, digits] of numbers) assert.equal(rawJsonAt(attributes, path), digits, path.join('/'));
    });

    it('keeps unicode text, escapes and non-ASCII keys', async () => {
      const body = '{"text":"héllo wörld — 日本語 🎉 \\ud83c\\udf89 \\"quoted\\" back\\\\slash\\nline","ключ":"значение"}';
      const attributes = await postAndRead(body);
      assert.equal(JSON.parse(rawJsonAt(attributes, ['text'])), 'héllo wörld — 日本語 🎉 🎉 "quoted" back\\slash\nline');
      assert.equal(JSON.parse(rawJsonAt(attributes, ['ключ'])), 'значение');
    });

    it('keeps __proto__ and constructor keys as plain data', async () => {
      const attributes = await postAndRead('{"__proto__":{"admin":true},"constructor":{"prototype":{"polluted":true}},"n":1}');
      assert.equal(rawJsonAt(attributes, ['__proto__']).replace(/\s/g, ''), '{"admin":true}');
      assert.equal(rawJsonAt(attributes, ['constructor']).replace(/\s/g, ''), '{"prototype":{"polluted":true}}');
      assert.ok(Object.hasOwn(JSON.parse(attributes), '__proto__'), attributes);
      assert.equal(({} as Record<string, unknown>).admin, undefined);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });
});

/** `YYYY-MM-DD HH:MM:SS` in UTC, the way default subjects show a time. */
function utcStamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
