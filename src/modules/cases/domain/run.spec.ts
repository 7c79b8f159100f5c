import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Case } from './case.js';
import { briefEvents as brief, caseProps, FIXTURE_NOW as NOW, runProps as run, TRIAGE_RULES as RULES } from './case.spec-fixtures.js';
import { MAX_TRACED_STEPS, type TracedStep } from './run.js';

const CASE = caseProps();

describe('Run, taken through its case', () => {
  it('starts a pending run on its first taking: running, one attempt', () => {
    const subject = Case.restore(CASE, [run()]);
    const taken = subject.takeRun(5)!;
    assert.deepEqual([taken.state, taken.attempts], ['running', 1]);
    assert.deepEqual(brief(subject.pullEvents()), ['run_started:5']);
  });

  it('resumes a run taken before (after a pause, or from a worker whose lease ran out)', () => {
    const subject = Case.restore(CASE, [run({ state: 'waiting', attempts: 2, currentStep: 3 })]);
    const taken = subject.takeRun(5)!;
    assert.deepEqual([taken.state, taken.attempts, taken.currentStep], ['running', 3, 3]);
    assert.deepEqual(brief(subject.pullEvents()), ['run_resumed:5']);
  });

  it('does not take a run that is not due, or that the case does not have', () => {
    const subject = Case.restore(CASE, [run({ state: 'running', attempts: 1, due: false })]);
    assert.equal(subject.takeRun(5), null);
    assert.equal(subject.takeRun(6), null);
    assert.deepEqual(subject.pullEvents(), []);
  });

  it('finds the run a worker held across an outside call only while it is still running', () => {
    assert.equal(Case.restore(CASE, [run({ state: 'running', due: false })]).heldRun(5)?.id, 5);
    assert.equal(Case.restore(CASE, [run({ state: 'waiting', due: false })]).heldRun(5), null);
  });

  it('holds a run at a step, resetting the step tries when the step is another one', () => {
    const subject = Case.restore(CASE, [run({ stepAttempts: 2, currentStep: 1 })]);
    const taken = subject.takeRun(5)!;
    taken.hold(1, 30_000);
    assert.equal(taken.stepAttempts, 2);
    taken.hold(4, 30_000);
    assert.deepEqual([taken.state, taken.currentStep, taken.stepAttempts], ['running', 4, 0]);
    assert.deepEqual(subject.pullEvents().slice(1).map((e) => e.type === 'run_held' && e.leaseMs), [30_000, 30_000]);
  });

  it('parks a run for a wait at the next step, and for a retry at the same step with the try counted', () => {
    const subject = Case.restore(CASE, [run()]);
    const taken = subject.takeRun(5)!;
    taken.park(2, 1000, { kind: 'wait' });
    assert.deepEqual([taken.state, taken.currentStep, taken.stepAttempts], ['waiting', 2, 0]);
    taken.park(2, 4000, { kind: 'retry', step: 'http_request', attempt: 3, error: 'answered 503' });
    assert.deepEqual([taken.state, taken.currentStep, taken.stepAttempts], ['waiting', 2, 3]);
    const parked = subject.pullEvents().filter((e) => e.type === 'run_parked');
    assert.deepEqual(parked.map((e) => e.type === 'run_parked' && [e.delayMs, e.pause.kind]), [[1000, 'wait'], [4000, 'retry']]);
  });

  it('finishes a run, failed with the error', () => {
    const subject = Case.restore(CASE, [run()]);
    const taken = subject.takeRun(5)!;
    taken.finish('failed', 'needs a human');
    assert.equal(taken.unfinished, false);
    assert.deepEqual(subject.pullEvents().at(-1), { type: 'run_finished', run: taken, state: 'failed', error: 'needs a human' });
  });

  it('keeps what a step noted for the timeline', () => {
    const subject = Case.restore(CASE, [run()]);
    subject.takeRun(5)!.note('http_request', { status: 200 });
    assert.deepEqual(subject.pullEvents().map((e) => e.type === 'step_noted' && [e.step, e.note]), [false, ['http_request', { status: 200 }]]);
  });
});

describe('Case moves and its runs', () => {
  it('supersedes every unfinished run, then records the move and starts the new status run, pending', () => {
    const subject = Case.restore(CASE, [run({ id: 5 }), run({ id: 6, state: 'waiting', due: false })]);
    subject.moveTo('Triage', RULES, { kind: 'api_token', tokenId: 7 });
    const events = subject.pullEvents();
    assert.deepEqual(brief(events), ['run_superseded:5', 'run_superseded:6', 'status_changed']);
    const started = subject.runStartedBy(events[2]!)!;
    assert.deepEqual([started.isStored, started.state, started.status, started.chainDepth], [false, 'pending', 'Triage', 0]);
  });

  it('lets the mover\'s worker take the run its move started, one deeper in the chain; the mover ends after its move, not superseded', () => {
    const subject = Case.restore(CASE, [run({ chainDepth: 4 }), run({ id: 6, state: 'waiting', due: false })]);
    const mover = subject.takeRun(5)!;
    subject.moveTo('Triage', RULES, { kind: 'automation' });
    assert.equal(mover.state, 'running');
    mover.finish('succeeded');
    const next = subject.takeStartedRun()!;
    assert.deepEqual([next.state, next.attempts, next.chainDepth], ['running', 1, 5]);
    assert.deepEqual(brief(subject.pullEvents()), ['run_started:5', 'run_superseded:6', 'status_changed', 'run_finished:5', 'run_started:new']);
    assert.equal(subject.takeStartedRun(), null);
  });

  it('starts no run when the new status has no automation', () => {
    const subject = Case.restore(CASE, [run()]);
    subject.moveTo('Closed', RULES, { kind: 'api_token', tokenId: 7 });
    const events = subject.pullEvents();
    assert.equal(subject.runStartedBy(events.at(-1)!), undefined);
    assert.equal(subject.takeStartedRun(), null);
  });

  it('drops a run a move started when the case moves again before anyone took it: it is never stored', () => {
    const subject = Case.restore(CASE);
    subject.moveTo('Triage', RULES, { kind: 'api_token', tokenId: 7 });
    subject.moveTo('Open', RULES, { kind: 'api_token', tokenId: 7 });
    const [first, second] = subject.pullEvents();
    assert.equal(subject.runStartedBy(first!), undefined);
    assert.equal(subject.runStartedBy(second!)?.status, 'Open');
  });

  it('parks the case in Error after its failed run, superseding no finished run', () => {
    const subject = Case.restore(CASE, [run()]);
    const taken = subject.takeRun(5)!;
    taken.finish('failed', 'boom');
    subject.park(RULES, 'boom');
    assert.deepEqual(brief(subject.pullEvents()), ['run_started:5', 'run_finished:5', 'status_changed']);
  });

  it('records the resume time the repository read on a parked run', () => {
    const subject = Case.restore(CASE, [run()]);
    const taken = subject.takeRun(5)!;
    const until = new Date(NOW.getTime() + 1000);
    taken.park(1, 1000, { kind: 'wait' });
    taken.resumesAt(until);
    assert.equal(taken.parkedUntil, until);
  });
});

describe('Run trace', () => {
  const step = (path: string, outcome = 'change'): TracedStep => ({
    path, type: 'set_attributes', outcome, started_at: NOW.toISOString(), finished_at: NOW.toISOString(), attempts: 1, http_status: null, error: null,
  });

  it('hands the steps traced since the last take to the repository once', () => {
    const taken = Case.restore(CASE, [run()]).takeRun(5)!;
    taken.trace(step('/automations/Open/0'));
    taken.trace(step('/automations/Open/1'));
    assert.deepEqual(taken.takeTrace(), { steps: [step('/automations/Open/0'), step('/automations/Open/1')], omitted: 0, replacesLast: false });
    assert.deepEqual(taken.takeTrace(), { steps: [], omitted: 0, replacesLast: false });
    assert.equal(taken.snapshot().tracedSteps, 2);
  });

  it('keeps at most MAX_TRACED_STEPS steps, counting those of the stored trace, and only counts the steps after', () => {
    const taken = Case.restore(CASE, [run({ tracedSteps: MAX_TRACED_STEPS - 1 })]).takeRun(5)!;
    taken.trace(step('/automations/Open/0'));
    taken.trace(step('/automations/Open/1'));
    taken.trace(step('/automations/Open/2'));
    assert.deepEqual(taken.takeTrace(), { steps: [step('/automations/Open/0')], omitted: 2, replacesLast: false });
  });

  it('replaces the stored entry of a step it retries with the step as it ends, beyond the bound too', () => {
    const taken = Case.restore(CASE, [run({ state: 'waiting', currentStep: 2, stepAttempts: 1, tracedSteps: MAX_TRACED_STEPS, retryTraced: true })]).takeRun(5)!;
    assert.deepEqual(taken.takeTrace(), { steps: [], omitted: 0, replacesLast: true }, 'nothing traced yet: the next take still replaces');
    taken.trace(step('/automations/Open/2', 'sent'));
    taken.trace(step('/automations/Open/3'));
    assert.deepEqual(taken.takeTrace(), { steps: [step('/automations/Open/2', 'sent')], omitted: 1, replacesLast: true });
  });
});
