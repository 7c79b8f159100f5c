import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWorkflowDefinition } from './workflow-definition.js';
import { BUILT_IN_STEP_TYPES } from '../../automation/application/steps/index.js';
import { compileStepArguments } from './step-arguments.js';

/** The service's own step types, as the running service registers them. */
const STEP_TYPES = compileStepArguments(BUILT_IN_STEP_TYPES.map((Type) => new Type()));

/** Where templates and `{{ secrets.NAME }}` may stand in a definition (see http-request-definition.ts). */

const STEP = '/automations/Open/0';
const AT = `${STEP}/http_request`;
const withStep = (step: unknown) => ({ name: 'Intake', case_source: 'direct', automations: { Open: [step] } });
const request = (overrides: Record<string, unknown>) => withStep({ http_request: { method: 'POST', url: 'https://crm.example/hooks', ...overrides } });

function problems(input: unknown): { path: string; error: string }[] {
  const result = parseWorkflowDefinition(input, STEP_TYPES);
  assert.equal(result.ok, false, `refused: ${JSON.stringify(input)}`);
  return result.ok ? [] : result.problems;
}

const problemMessage = (input: unknown) => problems(input).map((p) => p.error).join('; ');

function accepted(input: unknown): void {
  const result = parseWorkflowDefinition(input, STEP_TYPES);
  assert.ok(result.ok, `accepted: ${JSON.stringify(input)} -> ${JSON.stringify(result.ok ? '' : result.problems)}`);
}

describe('templates and secrets in http_request steps', () => {
  const rows: [string, unknown, string[]][] = [
    ['a template in the host', request({ url: 'https://api.crm.example{{ attributes.path }}' }), [`${AT}/url`]],
    ['a template as the host', request({ url: 'https://{{ attributes.host }}/hooks' }), [`${AT}/url`]],
    ['a template in the port', request({ url: 'https://crm.example:{{ attributes.port }}/hooks' }), [`${AT}/url`]],
    ['a template in the user part', request({ url: 'https://{{ attributes.user }}@crm.example/hooks' }), [`${AT}/url`]],
    ['a template in the scheme', request({ url: 'http{{ attributes.s }}://crm.example/hooks' }), [`${AT}/url`]],
    ['a template starting the url', request({ url: '{{ attributes.base }}/hooks' }), [`${AT}/url`]],
    ['a whole-template url without url_from_attribute', request({ url: '{{ attributes.link }}' }), [`${AT}/url`]],
    ['url_from_attribute with a url that is not one template', request({ url: 'https://crm.example/{{ attributes.id }}', url_from_attribute: true }), [`${AT}/url`]],
    ['url_from_attribute that is not a boolean', request({ url: '{{ attributes.link }}', url_from_attribute: 'yes' }), [`${AT}/url_from_attribute`, `${AT}/url`]],
    ['a secret as the url', request({ url: '{{ secrets.CRM_URL }}', url_from_attribute: true }), [`${AT}/url`]],
    ['a secret in the url path', request({ url: 'https://crm.example/{{ secrets.CRM_KEY }}' }), [`${AT}/url`]],
    ['a secret as a query key', request({ url: 'https://crm.example/hooks?{{ secrets.CRM_KEY }}=1' }), [`${AT}/url`]],
    ['a secret in the fragment', request({ url: 'https://crm.example/hooks?a=1#{{ secrets.CRM_KEY }}' }), [`${AT}/url`]],
    ['a header value with a line break', request({ headers: { 'x-a': 'a\r\nX-Injected: 1' } }), [`${AT}/headers/x-a`]],
    ['a header value with NUL', request({ headers: { 'x-a': 'a\u0000b' } }), [`${AT}/headers/x-a`]],
    ['a malformed secret name in a header', request({ headers: { authorization: 'Bearer {{ secrets.crm_key }}' } }), [`${AT}/headers/authorization`]],
    ['a secret in save_response_as', request({ save_response_as: '{{ secrets.CRM_KEY }}' }), [`${AT}/save_response_as`]],
    ['a secret in set_attributes', withStep({ set_attributes: { copy: 'x {{ secrets.CRM_KEY }}' } }), [`${STEP}/set_attributes/copy`]],
    ['a secret in a close outcome', withStep({ close: { outcome: '{{ secrets.CRM_KEY }}' } }), [`${STEP}/close/outcome`]],
    ['a secret in a fail message', withStep({ fail: 'key {{ secrets.CRM_KEY }}' }), [`${STEP}/fail`]],
    ['a secret in an if condition', withStep({ if: { field: 'case.subject', equals: '{{ secrets.CRM_KEY }}' }, then: [] }), [`${STEP}/if/equals`]],
    ['a secret in a nested step', withStep({ if: { field: 'case.mode', exists: true }, then: [{ set_attributes: { k: '{{ secrets.CRM_KEY }}' } }] }), [`${STEP}/then/0/set_attributes/k`]],
  ];
  for (const [label, input, paths] of rows) it(`refuses ${label}`, () => assert.deepEqual(problems(input).map((p) => p.path), paths));

  it('accepts templates after the host, url_from_attribute, and secrets in headers, query values and body', () => {
    accepted(request({ url: 'https://crm.example/{{ attributes.path }}?q={{ attributes.q }}#{{ case.id }}' }));
    accepted(request({ url: 'https://crm.example:8443/a/{{ case.id }}' }));
    accepted(request({ url: 'https://crm.example?id={{ case.id }}' }));
    accepted(request({ url: '{{ attributes.link }}', url_from_attribute: true }));
    accepted(request({ url: 'https://crm.example/hooks', url_from_attribute: false }));
    accepted(request({
      url: 'https://crm.example/hooks?x=1&key={{ secrets.CRM_KEY }}',
      headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' },
      body: { token: '{{ secrets.A }}', nested: ['{{ secrets.A_1 }}'] },
    }));
  });

  it('says why a templated host is refused', () => {
    assert.match(problemMessage(request({ url: 'https://{{ attributes.host }}/hooks' })), /scheme, host and port must not contain templates/);
    assert.match(problemMessage(withStep({ set_attributes: { k: '{{ secrets.K }}' } })), /only in http_request headers, url query values and body/);
  });
});
