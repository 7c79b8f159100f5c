import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GuardedHttpRequest } from '../../../extension-api/step-types.js';
import { MAX_TEST_RUN_MS, MAX_TEST_RUN_REQUESTS, TEST_RUN_HEADER, TestRunBudget, TestRunHttp } from './test-run-http.js';

/** A guarded client that records what it was asked to send. */
function recording() {
  const sent: GuardedHttpRequest[] = [];
  return { sent, http: { send: async (request: GuardedHttpRequest) => (sent.push(request), { status: 200, contentType: undefined, text: '' }) } };
}

const request = (headers: Record<string, string> = {}): GuardedHttpRequest => ({ method: 'GET', url: 'https://crm.example/x', headers, timeoutMs: 10_000 });

describe('a test run\'s budget', () => {
  it('lets MAX_TEST_RUN_REQUESTS requests go out, and refuses the next one, saying why', async () => {
    const { sent, http } = recording();
    const client = new TestRunHttp(true, http, new TestRunBudget(Date.now() + MAX_TEST_RUN_MS)).client((text) => text);
    for (let i = 0; i < MAX_TEST_RUN_REQUESTS; i += 1) await client.send(request());
    await assert.rejects(client.send(request()), { message: `the test run sent the ${MAX_TEST_RUN_REQUESTS} requests it may; nothing more was sent` });
    assert.equal(sent.length, MAX_TEST_RUN_REQUESTS);
  });

  it('sends nothing once the run is past its deadline, and gives a request no more than the time left', async () => {
    const { sent, http } = recording();
    const spent = new TestRunBudget(Date.now() - 1);
    await assert.rejects(new TestRunHttp(true, http, spent).client((text) => text).send(request()), { message: `the test run took the ${MAX_TEST_RUN_MS / 1000} s it may; it stopped there` });
    assert.equal(spent.spent, 'time');
    assert.equal(sent.length, 0);
    const budget = new TestRunBudget(Date.now() + 5_000);
    assert.ok(budget.takeRequest(10_000) <= 5_000);
    assert.equal(budget.hasTime(Date.now() + 5_000), false);
  });

  it('marks every request it sends as a test run, whatever header of that name, in any case, the step set', async () => {
    const { sent, http } = recording();
    const client = new TestRunHttp(true, http, new TestRunBudget(Date.now() + MAX_TEST_RUN_MS)).client((text) => text);
    await client.send(request({ 'x-case-intake-TEST-run': 'false', 'X-Case-Intake-Test-Run': 'no', accept: 'text/plain' }));
    assert.deepEqual(sent[0]!.headers, { accept: 'text/plain', [TEST_RUN_HEADER]: 'true' });
  });
});
