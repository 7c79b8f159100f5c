import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorToken, sampleDefinition } from '../support/scenario.js';
import { closeDb, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';
import {
  alteredToken,
  assertErrorBody,
  createdCaseId,
  givenWebhook,
  objectOfBytes,
  objectWithKeys,
  postWebhook,
  WEBHOOK_ROUTE,
  type WebhookWorkflow,
} from '../support/webhook-helpers.js';

/** The pino lines the app wrote, one JSON object each. */
function logLines(t: TestApp): string[] {
  return t.logs.flatMap((chunk) => chunk.split('\n')).filter((line) => line.trim() !== '');
}

/** Lets `onResponse` hooks that run after the response was handed back write their lines. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the webhook token stays out of logs and error bodies', () => {
  let t: TestApp;
  let w: WebhookWorkflow;
  let rotatedToken: string;
  const sent: { name: string; status: number; res: InjectResult }[] = [];
  const secrets = () => [w.token, alteredToken(w.token), rotatedToken];

  before(async () => {
    t = await startTestApp({ captureLogs: true });
    w = await givenWebhook(t, sampleDefinition());
    const send = async (name: string, status: number, request: Promise<InjectResult>) => sent.push({ name, status, res: await request });
    await send('valid', 201, postWebhook(t, w.workflowId, w.token, { customer_email: 'a@b.co' }));
    await send('invalid attributes', 422, postWebhook(t, w.workflowId, w.token, { amount: 'x' }));
    await send('not JSON', 422, postWebhook(t, w.workflowId, w.token, '{"customer_email":'));
    await send('1,001 keys', 413, postWebhook(t, w.workflowId, w.token, objectWithKeys(1001)));
    await send('over 1 MB', 413, postWebhook(t, w.workflowId, w.token, objectOfBytes(1_048_577)));
    await send('wrong workflow id', 401, postWebhook(t, w.workflowId + 1_000_000, w.token, { customer_email: 'a@b.co' }));
    await send('altered token', 401, postWebhook(t, w.workflowId, alteredToken(w.token), { customer_email: 'a@b.co' }));
    // Showing and rotating the token must not log it either.
    const shown = await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken });
    assert.equal(shown.body.webhook.token, w.token);
    const rotated = await t.request('POST', `/api/operator/v1/workflows/${w.workflowId}/webhook/rotate`, { token: operatorToken() });
    assert.equal(rotated.status, 200, rotated.text);
    rotatedToken = rotated.body.webhook.token;
    await settle();
  });
  after(async () => { await t.close(); await closeDb(); });

  it('answers each request with the expected status', () => {
    assert.deepEqual(sent.map((s) => [s.name, s.res.status]), sent.map((s) => [s.name, s.status]));
    createdCaseId(sent[0]!.res);
  });

  it('never puts the token (or the altered one) in a 401, 413 or 422 body', () => {
    for (const { status, res } of sent.slice(1)) assertErrorBody(res, status, secrets());
  });

  it('never writes the token, the altered token or a rotated token to the logs', () => {
    const lines = logLines(t);
    assert.ok(lines.length > 0, 'nothing was logged: the capture is not working');
    for (const secret of secrets()) {
      // The random part alone too, in case a prefix is stripped or the value cut short.
      const core = secret.slice(4, 24);
      const leaks = lines.filter((line) => line.includes(secret) || line.includes(core));
      assert.deepEqual(leaks, [], `a log line holds a webhook token`);
    }
    assert.deepEqual(lines.filter((line) => line.includes('token=')), []);
    assert.deepEqual(lines.filter((line) => line.includes('case_webhooks?')), []);
  });

  it('logs one request line per webhook request, naming the route pattern and the status', () => {
    const requestLines = logLines(t)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request' && entry.route === WEBHOOK_ROUTE);
    assert.deepEqual(
      requestLines.map((entry) => [entry.method, entry.status]),
      sent.map((s) => ['POST', s.status]),
    );
  });
});
