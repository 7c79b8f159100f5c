/**
 * How an invalid workflow definition reaches the client: 422
 * `{"error": "workflow_definition_invalid", "validation_errors": [{path, error}]}` with the
 * JSON Pointer of each offending value, and nothing stored. The full matrix of rules is in
 * src/modules/workflows/domain/workflow-definition.spec.ts; this file checks the HTTP mapping.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertJsonError, assertValidationError } from '../support/foundation-assertions.js';
import { exampleDefinition } from '../../src/modules/workflows/domain/example-definition.js';
import { createOrganization, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const WORKFLOWS = '/api/admin/v1/workflows';

/** A small valid definition with one custom status; `overrides` make it invalid in one place. */
function definition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Intake', case_source: 'direct', statuses: ['Triage'], ...overrides };
}

/** A definition whose Open automation is this one step. */
const withOpenStep = (step: unknown) => definition({ automations: { Open: [step] } });
const STEP = '/automations/Open/0';

const INVALID: [label: string, body: Record<string, unknown>, paths: string[]][] = [
  ['an unknown attribute type', definition({ attributes: { x: { type: 'date' } } }), ['/attributes/x/type']],
  ['a default status declared again', definition({ statuses: ['Open'] }), ['/statuses/0']],
  ['a duplicate status', definition({ statuses: ['Triage', 'Triage'] }), ['/statuses/1']],
  ['an automation under an undeclared status', definition({ automations: { Nope: [{ close: {} }] } }), ['/automations/Nope']],
  ['set_status to Error', withOpenStep({ set_status: 'Error' }), [`${STEP}/set_status`]],
  ['set_status to an undeclared status', withOpenStep({ set_status: 'Escalated' }), [`${STEP}/set_status`]],
  ['a condition without an operator', withOpenStep({ if: { field: 'case.mode' }, then: [] }), [`${STEP}/if`]],
  ['a condition with two operators', withOpenStep({ if: { field: 'case.mode', equals: 'test', in: ['test'] }, then: [] }), [`${STEP}/if`]],
  ['a condition on an unknown field', withOpenStep({ if: { field: 'case.colour', equals: 'red' }, then: [] }), [`${STEP}/if/field`]],
  ['an unknown step', withOpenStep({ launch_rocket: {} }), [STEP]],
  ['an http_request with a bad method', withOpenStep({ http_request: { method: 'FETCH', url: 'https://crm.example' } }), [`${STEP}/http_request/method`]],
  ['an http_request with a non-http url', withOpenStep({ http_request: { method: 'GET', url: 'ftp://crm.example' } }), [`${STEP}/http_request/url`]],
  ['a wait without seconds', withOpenStep({ wait: {} }), [`${STEP}/wait`]],
  ['on_sla steps under an unknown SLA event', definition({ on_sla: { late: [{ close: {} }] } }), ['/on_sla/late']],
  ['on_sla that is not an object of step lists', definition({ on_sla: [] }), ['/on_sla']],
  ['an on_sla step moving to an undeclared status', definition({ on_sla: { breached: [{ set_status: 'Escalated' }] } }), ['/on_sla/breached/0/set_status']],
  ['a missing name', { case_source: 'direct' }, ['/name']],
  ['a bad case_source', definition({ case_source: 'fax' }), ['/case_source']],
];

describe('workflow definition validation over HTTP', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  const workflowCount = async (org: Organization) =>
    (await db().query('SELECT count(*)::int AS n FROM workflows WHERE organization_id = $1', [org.id])).rows[0].n;

  it('accepts the full example of the contract (201)', async () => {
    const org = await createOrganization(t);
    const example = exampleDefinition();
    const res = await t.request('POST', WORKFLOWS, { token: org.adminToken, body: example });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.workflow.automations, example.automations);
    assert.deepEqual(res.body.workflow.attributes, example.attributes);
  });

  for (const [label, body, paths] of INVALID) {
    it(`POST with ${label} is a 422 at ${paths.join(', ')} and stores nothing`, async () => {
      const org = await createOrganization(t);
      const res = await t.request('POST', WORKFLOWS, { token: org.adminToken, body });
      assert.deepEqual(assertValidationError(res, 'workflow_definition_invalid'), paths);
      assert.equal(await workflowCount(org), 0);
    });
  }

  it('reports every problem of one definition, each at its own path', async () => {
    const org = await createOrganization(t);
    const body = { case_source: 'fax', statuses: ['Error'], attributes: { 'a/b': { type: 'text' } }, colour: 'red' };
    const res = await t.request('POST', WORKFLOWS, { token: org.adminToken, body });
    assert.deepEqual(assertValidationError(res, 'workflow_definition_invalid').sort(), ['/attributes/a~1b/type', '/case_source', '/colour', '/name', '/statuses/0']);
  });

  it('PUT maps an invalid definition the same way and keeps the draft', async () => {
    const org = await createOrganization(t);
    const created = await t.request('POST', WORKFLOWS, { token: org.adminToken, body: definition() });
    const [label, body, paths] = INVALID[4]!;
    const res = await t.request('PUT', `${WORKFLOWS}/${created.body.workflow.id}`, { token: org.adminToken, body });
    assert.deepEqual(assertValidationError(res, 'workflow_definition_invalid'), paths, label);
    const read = await t.request('GET', `${WORKFLOWS}/${created.body.workflow.id}`, { token: org.adminToken });
    assert.deepEqual(read.body, created.body);
  });

  it('a number beyond the range of a double is refused (422), not stored as null', async () => {
    const org = await createOrganization(t);
    const rawBody = '{"name":"Intake","case_source":"direct","attributes":{"priority":{"type":"number","enum":[1e400]}}}';
    const res = await t.request('POST', WORKFLOWS, { token: org.adminToken, rawBody });
    assertJsonError(res, 422, res.body?.validation_errors ? ['validation_errors'] : []);
    assert.equal(await workflowCount(org), 0);
  });

  it('a body that is not a JSON object (array, string, null) is a 422 and stores nothing', async () => {
    const org = await createOrganization(t);
    for (const rawBody of [JSON.stringify([definition()]), '"Intake"', 'null', '42']) {
      assertJsonError(await t.request('POST', WORKFLOWS, { token: org.adminToken, rawBody }), 422);
    }
    assert.equal(await workflowCount(org), 0);
  });
});
