import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Step } from '../../workflows/domain/workflow-definition.js';
import { compileRunWithPaths, type Condition, conditionHolds, type Instruction } from './run-program.js';
import type { TemplateScope } from './templates.js';

const compileRun = (steps: Step[]): Instruction[] => compileRunWithPaths(steps).program;

const IS_TEST: Condition = { field: 'case.mode', equals: 'test' };
const IS_GOLD: Condition = { field: 'attributes.tier', equals: 'gold' };

const step = (type: string, arg: unknown): Instruction => ({ op: 'step', type, arg });
const jumpUnless = (condition: Condition, target: number): Instruction => ({ op: 'jump_unless', condition, target });
const jump = (target: number): Instruction => ({ op: 'jump', target });

const SCOPE: TemplateScope = {
  case: { id: 42, subject: 'Refund', status: 'Open', mode: 'test', workflow_id: 7 },
  attributes: {
    tier: 'gold',
    zero: 0,
    off: false,
    empty: '',
    nothing: null,
    order: { customer: { vip: true, tags: ['a', 'b'] }, lines: [{ sku: 'X-1', qty: 2 }] },
  },
};

const holds = (condition: Omit<Condition, 'field'>, field: string) => conditionHolds({ field, ...condition }, SCOPE);

/** Executes a compiled program the way the executor walks it, returning the steps it reaches. */
function trace(program: Instruction[], truth: (condition: Condition) => boolean): unknown[] {
  const reached: unknown[] = [];
  for (let pc = 0, guard = 0; pc < program.length; guard++) {
    assert.ok(guard <= program.length, 'a compiled program only jumps forward');
    const instruction = program[pc]!;
    if (instruction.op === 'step') {
      reached.push(instruction.arg);
      pc += 1;
    } else if (instruction.op === 'jump') {
      assert.ok(instruction.target > pc, 'jumps go forward');
      pc = instruction.target;
    } else {
      assert.ok(instruction.target > pc, 'jumps go forward');
      pc = truth(instruction.condition) ? pc + 1 : instruction.target;
    }
  }
  return reached;
}

/** The same steps read directly from the nested definition. */
function interpret(steps: Step[], truth: (condition: Condition) => boolean): unknown[] {
  return steps.flatMap((s) => {
    if (!('if' in s)) return [Object.values(s)[0]];
    return interpret((truth(s.if as Condition) ? s.then : (s.else ?? [])) as Step[], truth);
  });
}

describe('compileRun', () => {
  it('keeps a run without conditions as a straight list of steps', () => {
    assert.deepEqual(compileRun([{ set_attributes: { a: 1 } }, { set_status: 'Triage' }]), [
      step('set_attributes', { a: 1 }),
      step('set_status', 'Triage'),
    ]);
  });

  it('compiles an if without else into one conditional jump past the then-branch', () => {
    const program = compileRun([
      { set_attributes: { a: 1 } },
      { if: IS_TEST, then: [{ set_attributes: { b: 2 } }, { set_status: 'Triage' }] },
      { close: { outcome: 'Done' } },
    ]);
    assert.deepEqual(program, [
      step('set_attributes', { a: 1 }),
      jumpUnless(IS_TEST, 4),
      step('set_attributes', { b: 2 }),
      step('set_status', 'Triage'),
      step('close', { outcome: 'Done' }),
    ]);
  });

  it('treats an empty else like a missing one', () => {
    assert.deepEqual(compileRun([{ if: IS_TEST, then: [{ fail: 'x' }], else: [] }]), [jumpUnless(IS_TEST, 2), step('fail', 'x')]);
  });

  it('compiles an if with else: the then-branch ends with a jump over the else-branch', () => {
    const program = compileRun([
      { if: IS_TEST, then: [{ set_attributes: { branch: 'then' } }], else: [{ set_attributes: { branch: 'else' } }, { wait: { seconds: 5 } }] },
      { close: {} },
    ]);
    assert.deepEqual(program, [
      jumpUnless(IS_TEST, 3),
      step('set_attributes', { branch: 'then' }),
      jump(5),
      step('set_attributes', { branch: 'else' }),
      step('wait', { seconds: 5 }),
      step('close', {}),
    ]);
  });

  it('gives each instruction the pointer of the step or if it came from, relative to the status\'s steps', () => {
    const steps: Step[] = [
      { if: IS_TEST, then: [{ if: IS_GOLD, then: [{ set_status: 'Gold' }] }], else: [{ fail: 'live' }] },
      { close: {} },
    ];
    const { program, paths } = compileRunWithPaths(steps);
    assert.deepEqual(program, compileRun(steps));
    assert.deepEqual(paths, ['/0', '/0/then/0', '/0/then/0/then/0', '/0', '/0/else/0', '/1']);
  });

  it('compiles nested ifs with targets relative to the whole program', () => {
    const program = compileRun([
      {
        if: IS_TEST,
        then: [{ if: IS_GOLD, then: [{ set_status: 'Gold' }], else: [{ set_status: 'Plain' }] }],
        else: [{ fail: 'live' }],
      },
    ]);
    assert.deepEqual(program, [
      jumpUnless(IS_TEST, 6),
      jumpUnless(IS_GOLD, 4),
      step('set_status', 'Gold'),
      jump(5),
      step('set_status', 'Plain'),
      jump(7),
      step('fail', 'live'),
    ]);
    const run = (test: boolean, gold: boolean) => trace(program, (c) => (c === IS_TEST ? test : gold));
    assert.deepEqual(run(true, true), ['Gold']);
    assert.deepEqual(run(true, false), ['Plain']);
    assert.deepEqual(run(false, true), ['live']);
  });

  it('reaches exactly the steps the nested definition selects, for any nesting and any condition outcome', () => {
    const conditions = [0, 1, 2].map((n): Condition => ({ field: `attributes.c${n}`, equals: true }));
    const leaf = fc.nat().map((n): Step => ({ set_attributes: { n } }));
    const { steps } = fc.letrec<{ steps: Step[]; step: Step }>((tie) => ({
      steps: fc.array(tie('step'), { maxLength: 4 }),
      step: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ if: fc.constantFrom(...conditions), then: tie('steps'), else: fc.option(tie('steps'), { nil: undefined }) })
          .map(({ else: otherwise, ...rest }): Step => (otherwise === undefined ? rest : { ...rest, else: otherwise })),
      ),
    }));
    fc.assert(
      fc.property(steps, fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), (definition, outcomes) => {
        const truth = (c: Condition) => outcomes[conditions.indexOf(c)]!;
        assert.deepEqual(trace(compileRun(definition), truth), interpret(definition, truth));
      }),
    );
  });
});

describe('conditionHolds', () => {
  it('equals compares case fields and attributes by value and JSON type', () => {
    assert.equal(holds({ equals: 'test' }, 'case.mode'), true);
    assert.equal(holds({ equals: 'live' }, 'case.mode'), false);
    assert.equal(holds({ equals: 42 }, 'case.id'), true);
    assert.equal(holds({ equals: '42' }, 'case.id'), false);
    assert.equal(holds({ equals: false }, 'attributes.off'), true);
    assert.equal(holds({ equals: null }, 'attributes.nothing'), true);
    assert.equal(holds({ equals: null }, 'attributes.missing'), false);
    assert.equal(holds({ equals: { vip: true, tags: ['a', 'b'] } }, 'attributes.order.customer'), true);
    assert.equal(holds({ equals: { vip: true, tags: ['b', 'a'] } }, 'attributes.order.customer'), false);
  });

  it('not_equals is the negation of equals, also for a missing attribute', () => {
    assert.equal(holds({ not_equals: 'live' }, 'case.mode'), true);
    assert.equal(holds({ not_equals: 'test' }, 'case.mode'), false);
    assert.equal(holds({ not_equals: 'gold' }, 'attributes.missing'), true);
    assert.equal(holds({ not_equals: 0 }, 'attributes.zero'), false);
  });

  it('in matches any member of the list, with the same JSON type', () => {
    assert.equal(holds({ in: ['silver', 'gold'] }, 'attributes.tier'), true);
    assert.equal(holds({ in: ['silver', 'bronze'] }, 'attributes.tier'), false);
    assert.equal(holds({ in: [] }, 'attributes.tier'), false);
    assert.equal(holds({ in: ['0', false, null] }, 'attributes.zero'), false);
    assert.equal(holds({ in: [1, 42] }, 'case.id'), true);
  });

  it('exists: true for any present non-null value (falsy ones included), false for null and missing', () => {
    for (const present of ['attributes.tier', 'attributes.zero', 'attributes.off', 'attributes.empty', 'case.subject']) {
      assert.equal(holds({ exists: true }, present), true, present);
      assert.equal(holds({ exists: false }, present), false, present);
    }
    for (const absent of ['attributes.nothing', 'attributes.missing', 'attributes.order.customer.email']) {
      assert.equal(holds({ exists: true }, absent), false, absent);
      assert.equal(holds({ exists: false }, absent), true, absent);
    }
  });

  it('follows dotted paths into nested objects and arrays, and nowhere else', () => {
    assert.equal(holds({ equals: true }, 'attributes.order.customer.vip'), true);
    assert.equal(holds({ equals: 'b' }, 'attributes.order.customer.tags.1'), true);
    assert.equal(holds({ equals: 'X-1' }, 'attributes.order.lines.0.sku'), true);
    assert.equal(holds({ exists: true }, 'attributes.tier.length'), false, 'strings have no fields');
    assert.equal(holds({ exists: true }, 'attributes.order.constructor'), false, 'inherited properties are not fields');
    assert.equal(holds({ exists: true }, 'attributes.order.__proto__'), false);
    assert.equal(holds({ exists: true }, 'unknown.tier'), false, 'only case.* and attributes.* are roots');
  });
});
