import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileStepArguments, type StepShape } from './step-arguments.js';

const AT = '/automations/Open/0/notify';
const notify: StepShape = {
  type: 'notify',
  argumentsSchema: { type: 'object', required: ['channel'], additionalProperties: false, properties: { channel: { type: 'string', minLength: 1, pattern: '^#' }, then: { type: 'string' } } },
};

function problems(shape: StepShape, args: unknown, statuses: string[] = ['Open']): { path: string; error: string }[] {
  const found: { path: string; error: string }[] = [];
  const known = compileStepArguments([shape]).check(shape.type, args, AT, new Set(statuses), (path, error) => found.push({ path, error }));
  assert.ok(known);
  return found;
}

describe('compileStepArguments', () => {
  it('reports what the schema refuses at the JSON Pointer of each value, one problem per value', () => {
    assert.deepEqual(problems(notify, { channel: '' }).map((p) => p.path), [`${AT}/channel`]);
    assert.deepEqual(problems(notify, { channel: '#ops', colour: 'red' }), [{ path: `${AT}/colour`, error: 'unknown key "colour"' }]);
    assert.deepEqual(problems(notify, {}).map((p) => p.path), [AT]);
    assert.deepEqual(problems(notify, { channel: '#ops' }), []);
  });

  it('lets a type\'s check add what a schema cannot say, and word the schema\'s refusals its own way', () => {
    const checked: StepShape = {
      ...notify,
      check: (args, { report, statuses }) => {
        const { channel, then } = (args ?? {}) as { channel?: unknown; then?: unknown };
        if (typeof channel !== 'string' || !channel.startsWith('#')) report('', 'must name a channel, like {"channel": "#ops"}');
        if (typeof then === 'string' && !statuses.has(then)) report('/then', `status "${then}" is not declared`);
      },
    };
    assert.deepEqual(problems(checked, { channel: '#ops', then: 'Escalated' }), [{ path: `${AT}/then`, error: 'status "Escalated" is not declared' }]);
    assert.deepEqual(problems(checked, { channel: 'ops' }), [{ path: AT, error: 'must name a channel, like {"channel": "#ops"}' }]);
    // The schema still refuses what the check lets through.
    assert.deepEqual(problems(checked, { channel: '#ops', colour: 'red' }).map((p) => p.path), [`${AT}/colour`]);
  });

  it('knows only the types it was given', () => {
    assert.deepEqual(compileStepArguments([notify]).types, ['notify']);
    assert.equal(compileStepArguments([notify]).check('page', {}, AT, new Set(), () => assert.fail('nothing to report')), false);
  });

  it('refuses a schema that is not JSON Schema, naming the step type', () => {
    assert.throws(() => compileStepArguments([{ ...notify, type: 'broken', argumentsSchema: { type: 'text' } }]), /^Error: step type "broken": its argumentsSchema is not a valid JSON Schema/);
  });
});
