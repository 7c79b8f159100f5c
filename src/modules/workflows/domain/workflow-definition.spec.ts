import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exampleDefinition } from './example-definition.js';
import { allStatuses, parseWorkflowDefinition, type WorkflowDefinition } from './workflow-definition.js';
import { BUILT_IN_STEP_TYPES } from '../../automation/application/steps/index.js';
import { compileStepArguments } from './step-arguments.js';

/** The service's own step types, as the running service registers them. */
const STEP_TYPES = compileStepArguments(BUILT_IN_STEP_TYPES.map((Type) => new Type()));

const base = (overrides: Record<string, unknown> = {}) => ({ name: 'Intake', case_source: 'direct', statuses: ['Triage'], ...overrides });
/** A definition whose Open automation is this one step. */
const withStep = (step: unknown) => base({ automations: { Open: [step] } });
const STEP = '/automations/Open/0';

/** The paths of the problems reported for `input`, which must be refused. */
function problemPaths(input: unknown): string[] {
  const result = parseWorkflowDefinition(input, STEP_TYPES);
  assert.equal(result.ok, false, `refused: ${JSON.stringify(input)}`);
  if (result.ok) return [];
  for (const p of result.problems) assert.ok(typeof p.error === 'string' && p.error.length > 0, 'each problem has a message');
  return result.problems.map((p) => p.path);
}

function problemMessage(input: unknown): string {
  const result = parseWorkflowDefinition(input, STEP_TYPES);
  assert.ok(!result.ok);
  return result.problems.map((p) => p.error).join('; ');
}

function accepted(input: unknown): WorkflowDefinition {
  const result = parseWorkflowDefinition(input, STEP_TYPES);
  assert.ok(result.ok, `accepted: ${JSON.stringify(input)} -> ${JSON.stringify(result.ok ? '' : result.problems)}`);
  return result.definition;
}

/** Each [label, input, paths] row: `input` is refused with exactly these problem paths. */
function refusesEach(rows: [string, unknown, string[]][]): void {
  for (const [label, input, paths] of rows) it(`refuses ${label}`, () => assert.deepEqual(problemPaths(input), paths));
}

describe('parseWorkflowDefinition', () => {
  describe('valid definitions', () => {
    it('accepts the contract example unchanged', () => {
      assert.deepEqual(accepted(exampleDefinition()), exampleDefinition());
    });

    it('fills in the defaults of a minimal definition', () => {
      assert.deepEqual(accepted({ name: 'Minimal', case_source: 'email' }), {
        name: 'Minimal',
        case_source: 'email',
        sensitive_data: false,
        statuses: [],
        default_outcome: null,
        attributes: {},
        automations: {},
      });
    });

    it('treats explicit nulls of optional fields as their defaults', () => {
      const d = accepted({ name: 'Nulls', case_source: 'ticketing', sensitive_data: null, statuses: null, default_outcome: null, attributes: null, automations: null });
      assert.deepEqual([d.sensitive_data, d.statuses, d.default_outcome, d.attributes, d.automations], [false, [], null, {}, {}]);
    });

    it('normalising is idempotent', () => {
      const once = accepted(base({ attributes: { a: { type: 'string' } } }));
      assert.deepEqual(accepted(once), once);
    });

    it('accepts every step kind, nested conditions, and automations on Open, Closed and custom statuses', () => {
      accepted(base({
        attributes: { customer: { type: 'object' }, endpoint: { type: 'string' } },
        automations: {
          Open: [
            { set_attributes: { note: 'x' } },
            { set_status: 'Closed' },
            { close: {} },
            { http_request: { method: 'GET', url: '{{ attributes.endpoint }}', url_from_attribute: true, headers: { 'x-a': 'b' }, timeout_ms: 60_000, retries: 0 } },
            { wait: { seconds: 0.5 } },
            { wait: { seconds: 2_592_000 } },
            { fail: 'on purpose' },
            { if: { field: 'attributes.customer.email', exists: true }, then: [{ if: { field: 'case.status', in: ['Open'] }, then: [] }] },
            { if: { field: 'case.workflow_id', not_equals: 3 }, then: [], else: [{ set_status: 'Triage' }] },
          ],
          Closed: [{ set_attributes: { closed: true } }],
          Triage: [],
        },
      }));
    });

    it('accepts conditions on attributes the definition\'s own steps write', () => {
      accepted(base({
        automations: {
          Open: [
            { http_request: { method: 'GET', url: 'https://crm.example/x', save_response_as: 'crm' } },
            { set_attributes: { queue: 'vip' } },
            { if: { field: 'attributes.crm.tier', equals: 'gold' }, then: [] },
            { if: { field: 'attributes.queue', exists: true }, then: [] },
          ],
        },
      }));
    });

    it('names the undeclared attribute a condition uses', () => {
      assert.match(problemMessage(withStep({ if: { field: 'attributes.tier', equals: 'gold' }, then: [] })), /attribute "tier" is not declared/);
    });

    it('accepts names and statuses of 200 characters', () => {
      accepted(base({ name: 'n'.repeat(200), statuses: ['s'.repeat(200)], default_outcome: 'o'.repeat(200) }));
    });
  });

  describe('the definition as a whole', () => {
    refusesEach([
      ['null', null, ['']],
      ['an array', [base()], ['']],
      ['a string', 'Intake', ['']],
      ['a number', 42, ['']],
      ['an unknown top-level key', base({ colour: 'red' }), ['/colour']],
      ['a missing name', { case_source: 'direct' }, ['/name']],
      ['an empty name', base({ name: '' }), ['/name']],
      ['a blank name', base({ name: '   ' }), ['/name']],
      ['a name over 200 characters', base({ name: 'n'.repeat(201) }), ['/name']],
      ['a name that is not a string', base({ name: 42 }), ['/name']],
      ['a missing case_source', { name: 'Intake' }, ['/case_source']],
      ['an unknown case_source', base({ case_source: 'fax' }), ['/case_source']],
      ['a case_source in the wrong case', base({ case_source: 'Direct' }), ['/case_source']],
      ['a sensitive_data that is not a boolean', base({ sensitive_data: 'yes' }), ['/sensitive_data']],
      ['an empty default_outcome', base({ default_outcome: '' }), ['/default_outcome']],
      ['a default_outcome that is not a string', base({ default_outcome: 1 }), ['/default_outcome']],
    ]);

    it('reports every problem, not only the first', () => {
      const paths = problemPaths({ case_source: 'fax', statuses: ['Error', 'A', 'A'], attributes: { x: { type: 'date' } }, automations: { Nope: [{ set_status: 'Error' }] }, extra: 1 });
      assert.deepEqual(paths.sort(), ['/attributes/x/type', '/automations/Nope', '/automations/Nope/0/set_status', '/case_source', '/extra', '/name', '/statuses/0', '/statuses/2']);
    });
  });

  describe('webhook_dedup', () => {
    it('fills in the default window, keeps a given one, and leaves the setting out when absent or null', () => {
      assert.deepEqual(accepted(base({ webhook_dedup: { key: '/delivery_id' } })).webhook_dedup, { key: '/delivery_id', window_seconds: 86_400 });
      assert.deepEqual(accepted(base({ webhook_dedup: { key: '/event/id', window_seconds: 60 } })).webhook_dedup, { key: '/event/id', window_seconds: 60 });
      assert.deepEqual(accepted(base({ webhook_dedup: { key: '/a~1b/~0c/0', window_seconds: 604_800 } })).webhook_dedup, { key: '/a~1b/~0c/0', window_seconds: 604_800 });
      assert.equal('webhook_dedup' in accepted(base()), false);
      assert.equal('webhook_dedup' in accepted(base({ webhook_dedup: null })), false);
    });

    refusesEach([
      ['a setting that is not an object', base({ webhook_dedup: '/id' }), ['/webhook_dedup']],
      ['a missing key', base({ webhook_dedup: {} }), ['/webhook_dedup/key']],
      ['a key that is not a string', base({ webhook_dedup: { key: 7 } }), ['/webhook_dedup/key']],
      ['the whole document as key', base({ webhook_dedup: { key: '' } }), ['/webhook_dedup/key']],
      ['a key without its leading slash', base({ webhook_dedup: { key: 'delivery_id' } }), ['/webhook_dedup/key']],
      ['a key with a bad escape', base({ webhook_dedup: { key: '/a~2' } }), ['/webhook_dedup/key']],
      ['a key ending in ~', base({ webhook_dedup: { key: '/a~' } }), ['/webhook_dedup/key']],
      ['a key over 1000 characters', base({ webhook_dedup: { key: `/${'k'.repeat(1000)}` } }), ['/webhook_dedup/key']],
      ['a window under 60 seconds', base({ webhook_dedup: { key: '/id', window_seconds: 59 } }), ['/webhook_dedup/window_seconds']],
      ['a window over 7 days', base({ webhook_dedup: { key: '/id', window_seconds: 604_801 } }), ['/webhook_dedup/window_seconds']],
      ['a window that is not an integer', base({ webhook_dedup: { key: '/id', window_seconds: 60.5 } }), ['/webhook_dedup/window_seconds']],
      ['a window given as a string', base({ webhook_dedup: { key: '/id', window_seconds: '60' } }), ['/webhook_dedup/window_seconds']],
      ['an unknown key in the setting', base({ webhook_dedup: { key: '/id', scope: 'org' } }), ['/webhook_dedup/scope']],
      ['a setting on a workflow that takes no webhook', base({ case_source: 'email', webhook_dedup: { key: '/id' } }), ['/webhook_dedup']],
      ['a bad key and a bad window at once', base({ webhook_dedup: { key: 'id', window_seconds: 0 } }), ['/webhook_dedup/key', '/webhook_dedup/window_seconds']],
    ]);
  });

  describe('statuses', () => {
    refusesEach([
      ['statuses that are not an array', base({ statuses: 'Triage' }), ['/statuses']],
      ['Open declared again', base({ statuses: ['Triage', 'Open'] }), ['/statuses/1']],
      ['Closed declared again', base({ statuses: ['Closed'] }), ['/statuses/0']],
      ['Error declared again', base({ statuses: ['Error'] }), ['/statuses/0']],
      ['a duplicate status', base({ statuses: ['Triage', 'Escalated', 'Triage'] }), ['/statuses/2']],
      ['an empty status', base({ statuses: [''] }), ['/statuses/0']],
      ['a status that is not a string', base({ statuses: [7] }), ['/statuses/0']],
      ['a status over 200 characters', base({ statuses: ['s'.repeat(201)] }), ['/statuses/0']],
    ]);

    it('says why a default or duplicate status is refused', () => {
      assert.match(problemMessage(base({ statuses: ['Open'] })), /default status/);
      assert.match(problemMessage(base({ statuses: ['A', 'A'] })), /duplicate status "A"/);
    });

    it('lists the default statuses first, then the custom ones', () => {
      assert.deepEqual(allStatuses(accepted(base({ statuses: ['Triage', 'Escalated'] }))), ['Open', 'Closed', 'Error', 'Triage', 'Escalated']);
    });
  });

  describe('attributes', () => {
    const attribute = (declaration: unknown, name = 'x') => base({ attributes: { [name]: declaration } });
    refusesEach([
      ['attributes that are not an object', base({ attributes: [] }), ['/attributes']],
      ['a declaration that is not an object', attribute('string'), ['/attributes/x']],
      ['an unknown attribute type', attribute({ type: 'date' }), ['/attributes/x/type']],
      ['a missing attribute type', attribute({ required: true }), ['/attributes/x/type']],
      ['an unknown declaration key', attribute({ type: 'string', min: 1 }), ['/attributes/x/min']],
      ['a required that is not a boolean', attribute({ type: 'string', required: 'yes' }), ['/attributes/x/required']],
      ['an empty enum', attribute({ type: 'integer', enum: [] }), ['/attributes/x/enum']],
      ['an enum that is not an array', attribute({ type: 'integer', enum: 1 }), ['/attributes/x/enum']],
      ['an unknown format', attribute({ type: 'string', format: 'phone' }), ['/attributes/x/format']],
      ['a format on a non-string attribute', attribute({ type: 'integer', format: 'email' }), ['/attributes/x/format']],
      ['an empty attribute name', attribute({ type: 'string' }, ''), ['/attributes/']],
      ['an attribute name over 200 characters', attribute({ type: 'string' }, 'a'.repeat(201)), [`/attributes/${'a'.repeat(201)}`]],
      ['a bad type under a name with / and ~ (escaped as ~1 and ~0)', attribute({ type: 'text' }, 'a/b~c'), ['/attributes/a~1b~0c/type']],
    ]);
  });

  describe('automations', () => {
    refusesEach([
      ['automations that are not an object', base({ automations: [] }), ['/automations']],
      ['an automation under an undeclared status', base({ automations: { Nope: [] } }), ['/automations/Nope']],
      ['an automation under Error', base({ automations: { Error: [] } }), ['/automations/Error']],
      ['steps that are not an array', base({ automations: { Open: { close: {} } } }), ['/automations/Open']],
      ['more than 100 steps', base({ automations: { Open: Array.from({ length: 101 }, () => ({ close: {} })) } }), ['/automations/Open']],
      ['a step that is not an object', withStep('close'), [STEP]],
      ['a step with no kind', withStep({}), [STEP]],
      ['a step with two kinds', withStep({ set_status: 'Triage', close: {} }), [STEP]],
      ['an unknown step', withStep({ launch_rocket: {} }), [STEP]],
    ]);

    it('names the unknown step', () => {
      assert.match(problemMessage(withStep({ launch_rocket: {} })), /unknown step "launch_rocket"/);
    });
  });

  describe('steps', () => {
    refusesEach([
      ['set_attributes with an empty object', withStep({ set_attributes: {} }), [`${STEP}/set_attributes`]],
      ['set_attributes with an array', withStep({ set_attributes: [{ a: 1 }] }), [`${STEP}/set_attributes`]],
      ['set_status to Error', withStep({ set_status: 'Error' }), [`${STEP}/set_status`]],
      ['set_status to an undeclared status', withStep({ set_status: 'Escalated' }), [`${STEP}/set_status`]],
      ['set_status that is not a string', withStep({ set_status: ['Triage'] }), [`${STEP}/set_status`]],
      ['close that is not an object', withStep({ close: 'Resolved' }), [`${STEP}/close`]],
      ['close with an unknown key', withStep({ close: { reason: 'x' } }), [`${STEP}/close`]],
      ['close with an empty outcome', withStep({ close: { outcome: ' ' } }), [`${STEP}/close/outcome`]],
      ['wait without seconds', withStep({ wait: {} }), [`${STEP}/wait`]],
      ['wait of zero seconds', withStep({ wait: { seconds: 0 } }), [`${STEP}/wait`]],
      ['wait of negative seconds', withStep({ wait: { seconds: -1 } }), [`${STEP}/wait`]],
      ['wait over 30 days', withStep({ wait: { seconds: 2_592_001 } }), [`${STEP}/wait`]],
      ['wait with seconds as text', withStep({ wait: { seconds: '5' } }), [`${STEP}/wait`]],
      ['wait with an extra key', withStep({ wait: { seconds: 5, unit: 's' } }), [`${STEP}/wait`]],
      ['fail with an empty message', withStep({ fail: '' }), [`${STEP}/fail`]],
      ['fail that is not a string', withStep({ fail: { message: 'x' } }), [`${STEP}/fail`]],
    ]);
  });

  describe('http_request steps', () => {
    const AT = `${STEP}/http_request`;
    const request = (overrides: Record<string, unknown>) => withStep({ http_request: { method: 'POST', url: 'https://crm.example/hooks', ...overrides } });
    refusesEach([
      ['an http_request that is not an object', withStep({ http_request: 'https://crm.example' }), [AT]],
      ['an unknown method', request({ method: 'FETCH' }), [`${AT}/method`]],
      ['a lower-case method', request({ method: 'post' }), [`${AT}/method`]],
      ['a missing method', request({ method: undefined }), [`${AT}/method`]],
      ['a non-http url', request({ url: 'ftp://crm.example' }), [`${AT}/url`]],
      ['a relative url', request({ url: '/hooks' }), [`${AT}/url`]],
      ['a missing url', request({ url: undefined }), [`${AT}/url`]],
      ['headers with a non-string value', request({ headers: { 'x-retries': 3 } }), [`${AT}/headers`]],
      ['a timeout of 0', request({ timeout_ms: 0 }), [`${AT}/timeout_ms`]],
      ['a timeout over 60 seconds', request({ timeout_ms: 60_001 }), [`${AT}/timeout_ms`]],
      ['a fractional timeout', request({ timeout_ms: 1.5 }), [`${AT}/timeout_ms`]],
      ['more than 10 retries', request({ retries: 11 }), [`${AT}/retries`]],
      ['negative retries', request({ retries: -1 }), [`${AT}/retries`]],
      ['an empty save_response_as', request({ save_response_as: '' }), [`${AT}/save_response_as`]],
      ['an unknown key', request({ auth: 'basic' }), [`${AT}/auth`]],
    ]);

  });

  describe('if steps and conditions', () => {
    const AT = `${STEP}/if`;
    const condition = (cond: unknown, rest: Record<string, unknown> = { then: [] }) => withStep({ if: cond, ...rest });
    refusesEach([
      ['a condition that is not an object', condition('case.mode == test'), [AT]],
      ['a condition without an operator', condition({ field: 'case.mode' }), [AT]],
      ['a condition with two operators', condition({ field: 'case.mode', equals: 'test', in: ['test'] }), [AT]],
      ['a condition on an unknown case field', condition({ field: 'case.colour', equals: 'red' }), [`${AT}/field`]],
      ['a condition without a field', condition({ equals: 'red' }), [`${AT}/field`]],
      ['a condition on an empty attribute path', condition({ field: 'attributes.', equals: 'x' }), [`${AT}/field`]],
      ['a condition with an unknown operator', condition({ field: 'case.mode', contains: 'te' }), [`${AT}/contains`, AT]],
      ['in with a non-array', condition({ field: 'case.mode', in: 'test' }), [`${AT}/in`]],
      ['exists with a non-boolean', condition({ field: 'case.subject', exists: 'yes' }), [`${AT}/exists`]],
      ['a condition on an undeclared attribute', condition({ field: 'attributes.tier', equals: 'gold' }), [`${AT}/field`]],
      ['a condition on a nested path of an undeclared attribute', condition({ field: 'attributes.customer.tier', equals: 'gold' }), [`${AT}/field`]],
      ['an if step without then', condition({ field: 'case.mode', equals: 'test' }, {}), [`${STEP}/then`]],
      ['then that is not an array', condition({ field: 'case.mode', equals: 'test' }, { then: { close: {} } }), [`${STEP}/then`]],
      ['else that is not an array', condition({ field: 'case.mode', equals: 'test' }, { then: [], else: 'close' }), [`${STEP}/else`]],
      ['an unknown key in an if step', condition({ field: 'case.mode', equals: 'test' }, { then: [], otherwise: [] }), [`${STEP}/otherwise`]],
      ['a bad step inside then', condition({ field: 'case.mode', equals: 'test' }, { then: [{ set_status: 'Error' }] }), [`${STEP}/then/0/set_status`]],
      ['a bad step inside else', condition({ field: 'case.mode', equals: 'test' }, { then: [], else: [{ close: {} }, { wait: {} }] }), [`${STEP}/else/1/wait`]],
    ]);
  });
});
