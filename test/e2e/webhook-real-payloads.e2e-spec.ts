import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';
import { directDefinition, givenWebhook, roundTrip, sameJsonb, type WebhookWorkflow } from '../support/webhook-helpers.js';
import { githubWebhookExamples, pickExamples } from '../support/webhook-payloads.js';

const MAX_EXAMPLES = 150;
const events = githubWebhookExamples();
const picked = pickExamples(events, MAX_EXAMPLES);

describe('real GitHub webhook payloads (@octokit/webhooks-examples) come back exactly', () => {
  let t: TestApp;
  let w: WebhookWorkflow;
  before(async () => {
    t = await startTestApp();
    w = await givenWebhook(t, directDefinition({ name: 'GitHub events' }));
  });
  after(async () => { await t.close(); await closeDb(); });

  it(`covers every event name (${events.length}) with at most ${MAX_EXAMPLES} examples`, () => {
    assert.ok(events.length >= 50, `only ${events.length} events in the package`);
    assert.deepEqual(picked.map((e) => e.name), events.map((e) => e.name));
    assert.ok(picked.reduce((n, e) => n + e.examples.length, 0) <= MAX_EXAMPLES);
  });

  for (const { name, examples } of picked) {
    it(`${name}: ${examples.length} example(s)`, async () => {
      for (const [i, example] of examples.entries()) {
        const posted = JSON.stringify(example);
        const returned = await roundTrip(t, w, posted);
        assert.ok(await sameJsonb(posted, returned), `${name} example ${i} differs as jsonb`);
        assert.deepStrictEqual(JSON.parse(returned), example);
      }
    });
  }
});
