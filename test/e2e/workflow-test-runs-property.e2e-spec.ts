/**
 * A test run and a real run cannot disagree (builder.md §2): over generated definitions
 * (attribute changes with templates, status moves, conditions, close, fail, values the schema
 * refuses) and attributes, a test run of the published version ends in the status, with the
 * outcome and attributes, that a real test-mode case created with those attributes ends in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { waitForSettled } from '../support/automation-helpers.js';
import { createOrganization, createToken, createWorkflow, type Organization } from '../support/scenario.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';

/** Enough to meet moves, conditions and failures together, few enough to take seconds. */
const RUNS = 80;
const STATUSES = ['Open', 'Triage', 'Review'] as const;
const ATTRIBUTES = { n: { type: 'integer' }, s: { type: 'string' }, flag: { type: 'boolean' } };

const definition = (automations: Record<string, unknown[]>) => ({
  name: 'Generated',
  case_source: 'direct',
  statuses: ['Triage', 'Review'],
  default_outcome: 'Resolved',
  attributes: ATTRIBUTES,
  automations,
});

// Templates that resolve, that keep another value's type (so may break the schema) and that may not resolve.
const setAttributes = fc
  .record(
    {
      n: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 4 }, { arbitrary: fc.constant('{{ attributes.n }}'), weight: 2 }, { arbitrary: fc.constant('{{ attributes.s }}'), weight: 1 }),
      s: fc.constantFrom('x', '{{ case.status }}', '{{ attributes.s }}-z', '{{ case.status }}/{{ attributes.s }}', '{{ case.mode }}'),
      flag: fc.oneof(fc.boolean(), fc.constant('{{ attributes.flag }}')),
    },
    { requiredKeys: [] },
  )
  .filter((patch) => Object.keys(patch).length > 0)
  .map((patch) => ({ set_attributes: patch }));

const condition = fc.oneof(
  fc.record({ field: fc.constant('attributes.n'), equals: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ field: fc.constant('attributes.flag'), equals: fc.boolean() }),
  fc.record({ field: fc.constant('attributes.s'), exists: fc.boolean() }),
  fc.record({ field: fc.constant('case.status'), in: fc.subarray([...STATUSES], { minLength: 1 }) }),
  fc.record({ field: fc.constant('case.mode'), not_equals: fc.constant('live') }),
);

const { steps } = fc.letrec<{ step: Record<string, unknown>; steps: Record<string, unknown>[] }>((tie) => ({
  step: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'steps' },
    { arbitrary: setAttributes, weight: 4 },
    { arbitrary: fc.constantFrom(...STATUSES, 'Closed').map((status) => ({ set_status: status })), weight: 3 },
    { arbitrary: fc.constantFrom({}, { outcome: 'Done' }).map((close) => ({ close })), weight: 1 },
    { arbitrary: fc.constantFrom('stop', 'stop {{ attributes.s }}').map((message) => ({ fail: message })), weight: 1 },
    { arbitrary: fc.record({ if: condition, then: tie('steps'), else: tie('steps') }), weight: 2 },
  ),
  steps: fc.array(tie('step'), { minLength: 1, maxLength: 3, depthIdentifier: 'steps' }),
}));

const automations = fc.record({ Open: steps, Triage: steps, Review: steps }, { requiredKeys: ['Open'] });
const attributes = fc.record({ n: fc.integer({ min: 0, max: 3 }), s: fc.constantFrom('x', 'y'), flag: fc.boolean() }, { requiredKeys: [] });

describe('a test run agrees with a real test-mode case', () => {
  let t: TestApp;
  let org: Organization;
  let apiToken: string;
  let workflowId: number;
  before(async () => {
    t = await startTestApp();
    org = await createOrganization(t);
    apiToken = (await createToken(t, org, 'api')).secret;
    workflowId = await createWorkflow(t, org, definition({ Open: [{ close: {} }] }));
  });
  after(async () => { await t.close(); await closeDb(); });

  it('ends in the same status, outcome and attributes', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(automations, attributes, async (generated, given) => {
        const saved = await t.request('PUT', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken, body: definition(generated) });
        assert.equal(saved.status, 200, saved.text);
        assert.equal((await t.request('POST', `/api/admin/v1/workflows/${workflowId}/publish`, { token: org.adminToken })).status, 200);
        const tested = await t.request('POST', `/api/admin/v1/workflows/${workflowId}/test_runs`, { token: org.adminToken, body: { definition: 'published', attributes: given } });
        assert.equal(tested.status, 200, tested.text);
        const { final, stopped_because } = tested.body.test_run;
        // The engine lets a chain go on to 25 moves before it calls it a loop; a test run stops at 20.
        if (stopped_because === 'move_limit') return;
        const created = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken, body: { attributes: given, mode: 'test' } });
        assert.equal(created.status, 201, created.text);
        const real = await waitForSettled(created.body.case.id, null);
        const realAttributes = typeof real.attributes === 'string' ? JSON.parse(real.attributes) : real.attributes;
        assert.deepEqual(final, { status: real.status, outcome: real.outcome, attributes: realAttributes }, `test run ${JSON.stringify(tested.body.test_run)}`);
        compared += 1;
      }),
      { numRuns: RUNS },
    );
    assert.ok(compared >= RUNS / 2, `only ${compared} of ${RUNS} generated runs ended before the move limit`);
  });
});
