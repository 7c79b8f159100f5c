import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StepContext, StepOutcome, StepTypeDefinition } from '../../../extension-api/step-types.js';
import type { Logger } from '../../../shared/logging/logger.js';
import type { OutboundHttp } from '../../../shared/outbound/outbound-http.js';
import type { SecretsService } from '../../secrets/application/secrets.service.js';
import { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { MAX_STEP_ERROR_CHARS, StepRunner, type StepSite } from './step-runner.js';

/** What an extension's step does for one test: `run` gets the public context. */
function stepType(run: (context: StepContext) => Promise<StepOutcome>): StepTypeDefinition {
  return { type: 'custom', argumentsSchema: { type: 'object' }, run };
}

const KEY = 's3cr3t-value';
const version = new WorkflowVersion(2, 1, { name: 'W', case_source: 'direct', sensitive_data: true, statuses: [], default_outcome: null, attributes: { floor: { type: 'integer' }, ticket: { type: 'string' } }, automations: {} });
const site = (): StepSite => ({
  run: { id: 9, stepAttempts: 2 },
  case: { id: 1, organizationId: 7 },
  version,
  scope: { case: { id: 1, subject: 'S', status: 'Open', mode: 'live', workflow_id: 2 }, attributes: { floor: 3 } },
}) as unknown as StepSite;

function runnerFor(type: StepTypeDefinition, key = KEY) {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { info: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as unknown as Logger;
  const secrets = { resolve: async (_org: number, names: string[]) => ({ found: { API_KEY: key }, missing: names.filter((n) => n !== 'API_KEY') }) } as unknown as SecretsService;
  return { runner: new StepRunner(new Map([[type.type, type]]), {} as OutboundHttp, secrets, logger), lines };
}

describe('StepRunner', () => {
  it('gives a step the case as plain data, its attempt, and the engine\'s templates', async () => {
    let seen: unknown;
    const { runner } = runnerFor(stepType(async (context) => {
      seen = [context.arguments, context.case, context.attempt, context.render('floor {{ attributes.floor }} of case {{ case.id }}')];
      return { kind: 'next' };
    }));
    await runner.run('custom', { a: 1 }, site());
    assert.deepEqual(seen, [{ a: 1 }, { id: 1, subject: 'S', status: 'Open', mode: 'live', workflow_id: 2, attributes: { floor: 3 } }, 2, 'floor 3 of case 1']);
  });

  it('masks the secrets a step resolved in its outcome and its log lines', async () => {
    const { runner, lines } = runnerFor(stepType(async (context) => {
      const { found } = await context.secrets(['API_KEY']);
      context.log.info(`calling with ${found.API_KEY}`, { key: found.API_KEY, nested: [{ line: `a\n${found.API_KEY}` }] });
      return { kind: 'retry', delayMs: 1000, error: `refused ${encodeURIComponent(found.API_KEY!)}` };
    }));
    assert.deepEqual(await runner.run('custom', {}, site()), { kind: 'retry', delayMs: 1000, error: 'refused [secret API_KEY]' });
    assert.deepEqual(lines, [{ fields: { key: '[secret API_KEY]', nested: [{ line: 'a\n[secret API_KEY]' }], runId: 9, caseId: 1, step: 'custom' }, message: 'calling with [secret API_KEY]' }]);
  });

  it('masks a secret with quotes, backslashes and line breaks in a note at every depth and in an error, also JSON-escaped', async () => {
    const hard = 'k"e\\y\n\u2028é';
    const { runner } = runnerFor(stepType(async (context) => {
      const { found } = await context.secrets(['API_KEY']);
      const key = found.API_KEY!;
      return { kind: 'next', note: { top: key, deep: { list: [{ at: `x${key}` }], [key]: 1 }, json: JSON.stringify({ key }) } };
    }), hard);
    const outcome = await runner.run('custom', {}, site());
    assert.deepEqual(outcome, { kind: 'next', note: { top: '[secret API_KEY]', deep: { list: [{ at: 'x[secret API_KEY]' }], '[secret API_KEY]': 1 }, json: '{"key":"[secret API_KEY]"}' } });
    const failed = await runnerFor(stepType(async (context) => ({ kind: 'fail', error: `answered ${JSON.stringify({ echo: (await context.secrets(['API_KEY'])).found.API_KEY })}` })), hard).runner.run('custom', {}, site());
    assert.deepEqual(failed, { kind: 'fail', error: 'answered {"echo":"[secret API_KEY]"}' });
  });

  it('gives a step [secret NAME] instead of the value when the run may not read secrets (an editor\'s test run), and names a missing one', async () => {
    let seen: unknown;
    const { runner } = runnerFor(stepType(async (context) => {
      seen = await context.secrets(['API_KEY', 'NOPE']);
      return { kind: 'next' };
    }));
    await runner.run('custom', {}, { ...site(), secretStandIns: true });
    assert.deepEqual(seen, { found: { API_KEY: '[secret API_KEY]' }, missing: ['NOPE'] });
  });

  it('checks a change against the workflow\'s attributes: a refused one fails the run', async () => {
    const change = (attributes: Record<string, unknown>) => runnerFor(stepType(async () => ({ kind: 'change', attributes }))).runner.run('custom', {}, site());
    assert.deepEqual(await change({ ticket: 'T-1' }), { kind: 'change', attributes: { ticket: 'T-1' }, note: undefined });
    const refused = await change({ ticket: 5 });
    assert.equal(refused.kind, 'fail');
    assert.match(refused.kind === 'fail' ? refused.error : '', /^custom: \/ticket must be of type string/);
  });

  it('fails the run of a step asking for what the engine cannot do', async () => {
    const outcome = (asked: StepOutcome) => runnerFor(stepType(async () => asked)).runner.run('custom', {}, site());
    assert.deepEqual(await outcome({ kind: 'move', status: 'Closed', outcome: 'Done' }), { kind: 'move', status: 'Closed', outcome: 'Done' });
    for (const status of ['Escalated', 'Error']) {
      assert.deepEqual(await outcome({ kind: 'move', status }), { kind: 'fail', error: `custom: cannot move the case to "${status}": not a declared status (a fail outcome parks a case in Error)` });
    }
    assert.deepEqual(await outcome({ kind: 'wait', seconds: 0 }), { kind: 'fail', error: 'custom: cannot wait 0 seconds' });
    assert.deepEqual(await outcome({ kind: 'retry', delayMs: Number.NaN, error: 'x' }), { kind: 'fail', error: 'custom: cannot retry after NaN ms' });
  });

  it('fails a step whose template does not resolve, naming it, and a step type nobody registered', async () => {
    const { runner } = runnerFor(stepType(async (context) => ({ kind: 'fail', error: String(context.render('{{ attributes.missing }}')) })));
    assert.deepEqual(await runner.run('custom', {}, site()), { kind: 'fail', error: 'custom: template {{ attributes.missing }} does not resolve' });
    assert.deepEqual(await runner.run('launch_rocket', {}, site()), { kind: 'fail', error: 'unknown step type launch_rocket' });
  });

  it('keeps at most MAX_STEP_ERROR_CHARS of an error, after masking the secrets in it', async () => {
    const { runner } = runnerFor(stepType(async (context) => {
      const { found } = await context.secrets(['API_KEY']);
      return { kind: 'fail', error: `${found.API_KEY} ${'x'.repeat(1_000_000)}` };
    }));
    const outcome = await runner.run('custom', {}, site());
    const error = outcome.kind === 'fail' ? outcome.error : '';
    assert.ok(error.startsWith('[secret API_KEY] xxx'), error.slice(0, 40));
    assert.equal(error, `${error.slice(0, MAX_STEP_ERROR_CHARS)}… (${'[secret API_KEY] '.length + 1_000_000 - MAX_STEP_ERROR_CHARS} more characters)`);
  });

  it('keeps at most MAX_STEP_ERROR_CHARS of a refused change naming each of a stranger\'s many problems', async () => {
    const attributes = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`field_${i}`, i]));
    const outcome = await runnerFor(stepType(async () => ({ kind: 'change', attributes }))).runner.run('custom', {}, site());
    assert.equal(outcome.kind, 'fail');
    assert.ok(outcome.kind === 'fail' && outcome.error.length < MAX_STEP_ERROR_CHARS + 40, String(outcome.kind === 'fail' && outcome.error.length));
  });
});
