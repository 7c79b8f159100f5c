/**
 * Templates where they could do harm (workflows-and-automation.md) and organization secrets
 * (integrations.md §3): a value inserted into an http_request url cannot move the request, a
 * header value cannot carry a line break, and `{{ secrets.NAME }}` reaches the receiver but no
 * case, timeline, event, error, log line or API answer.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  assertParkedInError,
  type Automated,
  automationDefinition,
  createCase,
  EMAIL,
  eventually,
  givenAutomation,
  readCase,
  receiverFor,
  startIsolatedApp,
  waitForSettled,
} from '../support/automation-helpers.js';
import { createOrganization, createToken } from '../support/scenario.js';
import { closeDb, db, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';

const SECRETS = '/api/admin/v1/secrets';

function putSecret(t: TestApp, adminToken: string, name: string, body: unknown): Promise<InjectResult> {
  return t.request('PUT', `${SECRETS}/${name}`, { token: adminToken, body });
}

async function givenSecret(t: TestApp, w: Automated, name: string, value: string): Promise<void> {
  const res = await putSecret(t, w.org.adminToken, name, { value });
  assert.equal(res.status, 200, res.text);
}

/** A workflow created as a draft: the status and body of the save. */
function saveDefinition(t: TestApp, adminToken: string, automations: Record<string, unknown[]>): Promise<InjectResult> {
  return t.request('POST', '/api/admin/v1/workflows', { token: adminToken, body: automationDefinition(automations) });
}

describe('http_request templates and organization secrets', () => {
  let t: TestApp;
  /** Every API answer the tests read, searched for secret values at the end. */
  const answers: string[] = [];
  const secretValues: string[] = [];
  before(async () => { t = await startTestApp({ captureLogs: true }); });
  after(async () => {
    await t.close();
    await closeDb();
  });

  const remember = (res: InjectResult) => {
    answers.push(res.text);
    return res;
  };

  describe('url values', () => {
    it('a value with "../" or "@host" stays in its path segment on the real host; one with "&" stays a query value', async (test) => {
      const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
      const w = await givenAutomation(t, {
        Open: [
          { http_request: { method: 'GET', url: `${receiver.url}/crm/{{ attributes.raw.up }}/view`, retries: 0 } },
          { http_request: { method: 'GET', url: `${receiver.url}/crm/{{ attributes.raw.at }}`, retries: 0 } },
          { http_request: { method: 'GET', url: `${receiver.url}/search?q={{ attributes.raw.query }}&limit=1`, retries: 0 } },
          { close: {} },
        ],
      });
      const id = await createCase(w, { attributes: { customer_email: EMAIL, raw: { up: '../../admin', at: '@evil.example/x', query: 'x&admin=1#frag' } } });
      await waitForSettled(id, 'Closed');
      assert.deepEqual(
        receiver.requests.map((r) => r.url),
        ['/crm/..%2F..%2Fadmin/view', '/crm/%40evil.example%2Fx', '/search?q=x%26admin%3D1%23frag&limit=1'],
      );
      assert.deepEqual(
        receiver.requests.map((r) => r.headers.host),
        receiver.requests.map(() => new URL(receiver.url).host),
      );
    });

    it('a value that would make a ".." path segment fails the run; nothing is sent', async (test) => {
      const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
      const w = await givenAutomation(t, { Open: [{ http_request: { method: 'GET', url: `${receiver.url}/crm/{{ attributes.raw }}/view`, retries: 0 } }, { close: {} }] });
      const id = await createCase(w, { attributes: { customer_email: EMAIL, raw: '..' } });
      await assertParkedInError(w, id, 'http_request: a url template value makes a "." or ".." path segment');
      assert.equal(receiver.requests.length, 0);
    });

    it('a url with a template in its scheme, host, user or port is a 422 at the step\'s pointer when saved', async () => {
      const { adminToken } = await createOrganization(t);
      for (const url of [
        'https://api.crm.example{{ attributes.raw }}',
        'https://{{ attributes.raw }}/hooks',
        'https://{{ attributes.raw }}@crm.example/hooks',
        'https://crm.example:{{ attributes.raw }}/hooks',
        'http{{ attributes.raw }}://crm.example/',
        '{{ attributes.raw }}/hooks',
        '{{ attributes.raw }}',
      ]) {
        const res = remember(await saveDefinition(t, adminToken, { Open: [{ http_request: { method: 'GET', url } }] }));
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), ['/automations/Open/0/http_request/url'], url);
      }
    });

    it('url_from_attribute takes the whole url from an attribute, and only an http(s) one', async (test) => {
      const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
      const w = await givenAutomation(t, { Open: [{ http_request: { method: 'POST', url: '{{ attributes.raw }}', url_from_attribute: true, body: { a: 1 }, retries: 0 } }, { close: {} }] });
      const id = await createCase(w, { attributes: { customer_email: EMAIL, raw: `${receiver.url}/from/attribute?x=1` } });
      await waitForSettled(id, 'Closed');
      assert.deepEqual(receiver.requests.map((r) => r.url), ['/from/attribute?x=1']);

      const file = await createCase(w, { attributes: { customer_email: EMAIL, raw: 'file:///etc/passwd' } });
      await assertParkedInError(w, file, 'http_request: url from attributes.raw is not an http(s) URL');
      assert.equal(receiver.requests.length, 1);
    });
  });

  describe('header values', () => {
    it('a value holding CR or LF fails the run naming the header, and nothing is sent', async (test) => {
      const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
      const w = await givenAutomation(t, { Open: [{ http_request: { method: 'POST', url: `${receiver.url}/hooks`, headers: { 'x-ref': 'ref-{{ attributes.raw }}' }, body: {}, retries: 0 } }, { close: {} }] });
      for (const raw of ['a\r\nX-Injected: 1', 'a\nX-Injected: 1', 'a\rb']) {
        const id = await createCase(w, { attributes: { customer_email: EMAIL, raw } });
        await assertParkedInError(w, id, 'http_request: header x-ref contains a line break; nothing was sent');
      }
      assert.equal(receiver.requests.length, 0);
    });

    it('a value holding NUL (here from a secret) fails the run naming the header, not the value', async (test) => {
      const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
      const w = await givenAutomation(t, { Open: [{ http_request: { method: 'GET', url: `${receiver.url}/hooks`, headers: { 'x-key': '{{ secrets.WITH_NUL }}' }, retries: 0 } }, { close: {} }] });
      const value = `nul-${randomBytes(6).toString('hex')}\u0000tail`;
      secretValues.push(value);
      await givenSecret(t, w, 'WITH_NUL', value);
      const id = await createCase(w);
      await assertParkedInError(w, id, 'http_request: header x-key contains a NUL character; nothing was sent');
      assert.equal(receiver.requests.length, 0);
    });
  });

  describe('organization secrets API', () => {
    it('creates, replaces, lists and deletes secrets; no answer ever holds a value', async () => {
      const org = await createOrganization(t);
      const value = `crm-${randomBytes(8).toString('hex')}`;
      const replaced = `crm2-${randomBytes(8).toString('hex')}`;
      secretValues.push(value, replaced);

      const created = remember(await putSecret(t, org.adminToken, 'CRM_KEY', { value }));
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(Object.keys(created.body), ['secret']);
      assert.deepEqual(Object.keys(created.body.secret).sort(), ['created_at', 'name', 'updated_at']);
      assert.equal(created.body.secret.name, 'CRM_KEY');

      const again = remember(await putSecret(t, org.adminToken, 'CRM_KEY', { value: replaced }));
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.secret.created_at, created.body.secret.created_at, 'replacing keeps created_at');
      assert.ok(again.body.secret.updated_at >= created.body.secret.updated_at);
      remember(await putSecret(t, org.adminToken, 'A', { value: 'x' }));

      const list = remember(await t.request('GET', SECRETS, { token: org.adminToken }));
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.secrets.map((s: { name: string }) => s.name), ['A', 'CRM_KEY']);
      for (const s of list.body.secrets) assert.deepEqual(Object.keys(s).sort(), ['created_at', 'name', 'updated_at']);

      const { rows } = await db().query('SELECT value_ciphertext FROM organization_secrets WHERE organization_id = $1 AND name = $2', [org.id, 'CRM_KEY']);
      assert.match(rows[0].value_ciphertext, /^v2\./, 'stored sealed');
      assert.ok(!rows[0].value_ciphertext.includes(replaced));

      const other = await createOrganization(t);
      const foreign = remember(await t.request('GET', SECRETS, { token: other.adminToken }));
      assert.deepEqual(foreign.body, { secrets: [] }, 'another organization sees none');
      assert.equal((await t.request('DELETE', `${SECRETS}/CRM_KEY`, { token: other.adminToken })).status, 404);

      const deleted = await t.request('DELETE', `${SECRETS}/CRM_KEY`, { token: org.adminToken });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      const gone = remember(await t.request('DELETE', `${SECRETS}/CRM_KEY`, { token: org.adminToken }));
      assert.equal(gone.status, 404);
      assert.equal(typeof gone.body.error, 'string');
      assert.deepEqual(remember(await t.request('GET', SECRETS, { token: org.adminToken })).body.secrets.map((s: { name: string }) => s.name), ['A']);
    });

    it('refuses bad names, values over 8 KB and any other key or value with a 422; other credentials with a 401', async () => {
      const org = await createOrganization(t);
      const api = await createToken(t, org, 'api');
      for (const name of ['A', 'CRM_KEY_2', `A${'B'.repeat(63)}`]) assert.equal((await putSecret(t, org.adminToken, name, { value: 'v' })).status, 200, name);
      for (const name of ['crm_key', '1KEY', '_KEY', 'CRM-KEY', 'CRM%20KEY', `A${'B'.repeat(64)}`, 'K%C3%A9']) {
        const res = remember(await putSecret(t, org.adminToken, name, { value: 'v' }));
        assert.equal(res.status, 422, `${name}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
        assert.equal((await t.request('DELETE', `${SECRETS}/${name}`, { token: org.adminToken })).status, 404, `DELETE ${name} names nothing`);
      }
      assert.equal((await putSecret(t, org.adminToken, 'BIG', { value: 'x'.repeat(8192) })).status, 200, '8 KB is accepted');
      for (const body of [
        { value: 'x'.repeat(8193) },
        { value: 'é'.repeat(4097) },
        { value: '' },
        { value: 42 },
        { value: null },
        { value: ['x'] },
        {},
        { value: 'x', name: 'OTHER' },
      ]) {
        const res = remember(await putSecret(t, org.adminToken, 'BAD', body));
        assert.equal(res.status, 422, `${JSON.stringify(body).slice(0, 40)}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
      }
      for (const token of [api.secret, undefined, 'adm_nope']) {
        assert.equal((await putSecret(t, token as string, 'X', { value: 'v' })).status, 401);
        assert.equal((await t.request('GET', SECRETS, { token })).status, 401);
        assert.equal((await t.request('DELETE', `${SECRETS}/A`, { token })).status, 401);
      }
      const names = remember(await t.request('GET', SECRETS, { token: org.adminToken })).body.secrets.map((s: { name: string }) => s.name);
      assert.deepEqual(names, ['A', `A${'B'.repeat(63)}`, 'BIG', 'CRM_KEY_2']);
    });
  });

  describe('{{ secrets.NAME }} in http_request', () => {
    it('reaches the receiver in a header, a query value and the body, and nowhere else', async (test) => {
      const deliveries = await receiverFor(test, () => ({ status: 200 }));
      const receiver = await receiverFor(test, (n) => (n === 1 ? { status: 200, body: { ok: true } } : { status: 500, body: { error: 'down' } }));
      const value = `s3cr3t/&=+ ${randomBytes(8).toString('hex')}`;
      secretValues.push(value);
      const step = {
        http_request: {
          method: 'POST',
          url: `${receiver.url}/crm/{{ case.id }}?key={{ secrets.CRM_KEY }}`,
          headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' },
          body: { token: '{{ secrets.CRM_KEY }}', text: 'key={{ secrets.CRM_KEY }}' },
          retries: 0,
          save_response_as: 'crm',
        },
      };
      const w = await givenAutomation(t, { Open: [step, { close: { outcome: 'Synced' } }] });
      await givenSecret(t, w, 'CRM_KEY', value);
      const subscription = await t.request('POST', '/api/admin/v1/subscriptions', { token: w.org.adminToken, body: { url: deliveries.url, events: ['case.closed', 'case.errored'] } });
      assert.equal(subscription.status, 201, subscription.text);

      const id = await createCase(w);
      await waitForSettled(id, 'Closed');
      const [request] = receiver.requests;
      assert.equal(request!.headers.authorization, `Bearer ${value}`);
      assert.equal(new URL(request!.url, receiver.url).searchParams.get('key'), value);
      assert.equal(new URL(request!.url, receiver.url).pathname, `/crm/${id}`);
      assert.deepEqual(JSON.parse(request!.body), { token: value, text: `key=${value}` });

      // The same request failing: the run's error and the timeline name no value.
      const failing = await createCase(w);
      const { failed } = await assertParkedInError(w, failing, /^http_request: POST http:\/\/127\.0\.0\.1:\d+\/crm\/\d+ answered 500 \(after 0 retries\)$/);
      assert.ok(!failed.error!.includes(value));

      await deliveries.waitForRequests(2);
      answers.push(...deliveries.requests.map((r) => r.body));
      for (const caseId of [id, failing]) {
        remember(await readCase(w, caseId));
        remember(await t.request('GET', `/api/admin/v1/cases/${caseId}/timeline`, { token: w.org.adminToken }));
        const stored = await db().query(
          `SELECT (SELECT coalesce(json_agg(e.data), '[]')::text FROM case_events e WHERE e.case_id = $1) AS timeline,
                  (SELECT coalesce(json_agg(o.payload), '[]')::text FROM outbox_events o WHERE o.case_id = $1) AS events,
                  (SELECT attributes::text FROM cases WHERE id = $1) AS attributes,
                  (SELECT coalesce(string_agg(r.error, ' '), '') FROM workflow_runs r WHERE r.case_id = $1) AS errors`,
          [caseId],
        );
        answers.push(...Object.values(stored.rows[0] as Record<string, string>));
      }
      remember(await t.request('GET', `/api/admin/v1/cases?workflow_id=${w.workflowId}`, { token: w.org.adminToken }));
      remember(await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}`, { token: w.org.adminToken }));
      remember(await t.request('GET', SECRETS, { token: w.org.adminToken }));
    });

    it('a run needing a secret that does not exist fails naming it, and nothing is sent', async (test) => {
      const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
      const w = await givenAutomation(t, { Open: [{ http_request: { method: 'GET', url: `${receiver.url}/x?k={{ secrets.MISSING_KEY }}`, headers: { 'x-a': '{{ secrets.PRESENT }}' }, retries: 0 } }, { close: {} }] });
      await givenSecret(t, w, 'PRESENT', 'here');
      const id = await createCase(w);
      await assertParkedInError(w, id, 'http_request: secret MISSING_KEY does not exist');
      assert.equal(receiver.requests.length, 0);

      // A secret deleted after the workflow was published: the next run fails the same way.
      assert.equal((await t.request('DELETE', `${SECRETS}/PRESENT`, { token: w.org.adminToken })).status, 204);
      await givenSecret(t, w, 'MISSING_KEY', 'now here');
      const next = await createCase(w);
      await assertParkedInError(w, next, 'http_request: secret PRESENT does not exist');
      assert.equal(receiver.requests.length, 0);
    });

    it('is a 422 at save anywhere but http_request headers, url query values and body', async () => {
      const { adminToken } = await createOrganization(t);
      const rows: [unknown[], string][] = [
        [[{ set_attributes: { copy: '{{ secrets.CRM_KEY }}' } }], '/automations/Open/0/set_attributes/copy'],
        [[{ close: { outcome: 'by {{ secrets.CRM_KEY }}' } }], '/automations/Open/0/close/outcome'],
        [[{ fail: '{{ secrets.CRM_KEY }}' }], '/automations/Open/0/fail'],
        [[{ if: { field: 'attributes.raw', equals: '{{ secrets.CRM_KEY }}' }, then: [] }], '/automations/Open/0/if/equals'],
        [[{ http_request: { method: 'GET', url: 'https://crm.example/{{ secrets.CRM_KEY }}' } }], '/automations/Open/0/http_request/url'],
        [[{ http_request: { method: 'GET', url: '{{ secrets.CRM_KEY }}', url_from_attribute: true } }], '/automations/Open/0/http_request/url'],
        [[{ http_request: { method: 'GET', url: 'https://crm.example/x', save_response_as: '{{ secrets.CRM_KEY }}' } }], '/automations/Open/0/http_request/save_response_as'],
      ];
      for (const [steps, path] of rows) {
        const res = remember(await saveDefinition(t, adminToken, { Open: steps }));
        assert.equal(res.status, 422, `${JSON.stringify(steps)}: ${res.text}`);
        assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), [path]);
      }
    });

    it('is a 422 at save in a step whose url comes from an attribute, where it stands; another step of the workflow may use it', async () => {
      const { adminToken } = await createOrganization(t);
      const toAttribute = { method: 'POST', url: '{{ attributes.raw }}', url_from_attribute: true };
      const rows: [Record<string, unknown>, string[]][] = [
        [{ ...toAttribute, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' } }, ['/automations/Open/0/http_request/headers/authorization']],
        [{ ...toAttribute, body: { nested: ['x', 'key={{ secrets.CRM_KEY }}'] } }, ['/automations/Open/0/http_request/body/nested/1']],
        [{ ...toAttribute, headers: { 'x-a': '{{ secrets.A }}' }, body: '{{ secrets.B }}' }, ['/automations/Open/0/http_request/headers/x-a', '/automations/Open/0/http_request/body']],
      ];
      for (const [step, paths] of rows) {
        const res = remember(await saveDefinition(t, adminToken, { Open: [{ http_request: step }] }));
        assert.equal(res.status, 422, `${JSON.stringify(step)}: ${res.text}`);
        assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), paths);
        assert.match(res.body.validation_errors[0].error, /url_from_attribute/);
      }
      const separate = remember(await saveDefinition(t, adminToken, {
        Open: [
          { http_request: { ...toAttribute, headers: { 'x-case': '{{ case.id }}' } } },
          { http_request: { method: 'POST', url: 'https://crm.example/hooks?key={{ secrets.CRM_KEY }}', headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' } } },
        ],
      }));
      assert.equal(separate.status, 201, separate.text);
    });

    it('no secret value is in any API answer, stored case data, event, error or log line', async () => {
      assert.ok(secretValues.length >= 4 && answers.length > 20, 'the tests above ran and collected their answers');
      await eventually('the app to have written its log lines', async () => (t.logs.length > 0 ? true : undefined));
      const haystacks: [string, string[]][] = [['answer or stored data', answers], ['log line', t.logs]];
      for (const value of secretValues) {
        for (const form of [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]) {
          for (const [where, texts] of haystacks) assert.ok(!texts.some((text) => text.includes(form)), `a ${where} holds a secret value`);
        }
      }
    });
  });
});

describe('url_from_attribute on an app that refuses private addresses (own database and queue)', () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  before(async () => { app = await startIsolatedApp({ OUTBOUND_ALLOW_PRIVATE: 'false' }); });
  after(async () => { await app?.close(); });

  it('a url taken from an attribute is SSRF-guarded like any url: nothing reaches a loopback receiver', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const port = new URL(receiver.url).port;
    const w = await givenAutomation(app.t, { Open: [{ http_request: { method: 'POST', url: '{{ attributes.raw }}', url_from_attribute: true, body: { a: 1 }, retries: 0 } }, { close: {} }] });
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const id = await createCase(w, { attributes: { customer_email: EMAIL, raw: `http://${host}:${port}/ssrf` } });
      await assertParkedInError(w, id, new RegExp(`^http_request: POST http://${host.replace(/[.[\]]/g, '\\$&')}:${port}/ssrf failed: `), app.database.pool);
    }
    assert.equal(receiver.requests.length, 0, 'the loopback receiver got no request');
  });
});
