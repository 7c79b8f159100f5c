import { Inject, Injectable } from '@nestjs/common';
import type { GuardedHttp, StepContext, StepOutcome } from '../../../extension-api/step-types.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { OutboundHttp } from '../../../shared/outbound/outbound-http.js';
import type { CaseProps } from '../../cases/domain/case.js';
import type { Run } from '../../cases/domain/run.js';
import { SecretsService } from '../../secrets/application/secrets.service.js';
import { ERROR } from '../../workflows/domain/status-rules.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { maskSecrets, redactSecrets } from '../domain/request-templates.js';
import { render, UnresolvableTemplateError, type TemplateScope } from '../domain/templates.js';
import { StepTypes } from './run-engine.ports.js';
import { mergeIfValid } from './steps/attribute-merge.js';

/** Where a run stands when one of its steps runs. */
export interface StepSite {
  run: Run;
  case: CaseProps;
  version: WorkflowVersion;
  /** `case.*` and the parsed attributes as the steps before left them. */
  scope: TemplateScope;
  /**
   * The outbound client the step is given, made with the function that masks the secrets the
   * step resolved; the guarded client when absent (a test run captures requests instead).
   */
  http?: (redact: (text: string) => string) => GuardedHttp;
  /** Told the status of each answer the step's requests got (for the run's trace). */
  answered?: (status: number) => void;
  /**
   * Secrets are never read: the step gets `[secret NAME]` as the value of each that exists
   * (a test run started by a caller below `admin`, who may not read secrets).
   */
  secretStandIns?: boolean;
}

/**
 * Runs one step through its registered type, built-in or an extension's, with the public
 * context: the engine's templates, the organization's secrets, the guarded HTTP client. What
 * comes back is made safe the same way for every type: secret values masked, an attribute
 * change checked against the workflow's schema and storage rules.
 */
@Injectable()
export class StepRunner {
  constructor(
    private readonly types: StepTypes,
    private readonly http: OutboundHttp,
    private readonly secrets: SecretsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  isExternal(type: string): boolean {
    return this.types.get(type)?.external === true;
  }

  async run(type: string, args: unknown, site: StepSite): Promise<StepOutcome> {
    const stepType = this.types.get(type);
    if (!stepType) return { kind: 'fail', error: `unknown step type ${type}` };
    const resolved: Record<string, string> = Object.create(null);
    const redact = (text: string) => redactSecrets(resolved)(text);
    const mask = (value: unknown): unknown => maskSecrets(value, redact);
    const log = (level: 'info' | 'warn') => (message: string, fields: Record<string, unknown> = {}) =>
      this.logger[level]({ ...(mask(fields) as object), runId: site.run.id, caseId: site.case.id, step: type }, redact(message));
    const context: StepContext = {
      arguments: args,
      case: { ...site.scope.case, attributes: site.scope.attributes },
      attempt: site.run.stepAttempts,
      render: (value) => render(value, site.scope),
      secrets: async (names) => {
        const answer = await this.secrets.resolve(site.case.organizationId, names);
        if (site.secretStandIns) return { found: Object.fromEntries(Object.keys(answer.found).map((name) => [name, secretStandIn(name)])), missing: answer.missing };
        Object.assign(resolved, answer.found);
        return answer;
      },
      http: answeredTo(site.http ? site.http(redact) : { send: (request) => this.http.send(request) }, site.answered),
      log: { info: log('info'), warn: log('warn') },
    };
    let outcome: StepOutcome;
    try {
      outcome = await stepType.run(context);
    } catch (err) {
      if (err instanceof UnresolvableTemplateError) return { kind: 'fail', error: `${type}: ${err.message}` };
      throw err;
    }
    const refusal = refusalOf(outcome, site.version);
    if (refusal) return { kind: 'fail', error: `${type}: ${refusal}` };
    if (outcome.kind === 'change') outcome = mergeIfValid(type, outcome.attributes, site, outcome.note);
    return bounded(Object.keys(resolved).length ? redacted(outcome, redact) : outcome);
  }
}

/** What a step gets, shows and sends in place of a secret it may not read. */
export const secretStandIn = (name: string) => `[secret ${name}]`;

/**
 * The longest error a step's outcome keeps. An error can quote what a stranger sent (a receiver's
 * answer that fails the attribute schema names each problem), and it is stored with the run, in
 * its trace and in the case's timeline: the rest is cut, after secrets were masked.
 */
export const MAX_STEP_ERROR_CHARS = 2_000;

function bounded(outcome: StepOutcome): StepOutcome {
  if ((outcome.kind !== 'fail' && outcome.kind !== 'retry') || outcome.error.length <= MAX_STEP_ERROR_CHARS) return outcome;
  const cut = outcome.error.length - MAX_STEP_ERROR_CHARS;
  return { ...outcome, error: `${outcome.error.slice(0, MAX_STEP_ERROR_CHARS)}… (${cut} more characters)` };
}

function answeredTo(http: GuardedHttp, answered: StepSite['answered']): GuardedHttp {
  if (!answered) return http;
  return {
    send: async (request) => {
      const response = await http.send(request);
      answered(response.status);
      return response;
    },
  };
}

/**
 * Why the engine cannot do what an outcome asks: the built-in steps' arguments were checked
 * when their definition was saved, an extension's outcome is checked here, so that it fails
 * its run instead of its job.
 */
function refusalOf(outcome: StepOutcome, version: WorkflowVersion): string | undefined {
  if (outcome.kind === 'move' && (outcome.status === ERROR || !version.statuses.has(outcome.status))) return `cannot move the case to "${outcome.status}": not a declared status (a fail outcome parks a case in Error)`;
  if (outcome.kind === 'wait' && !(outcome.seconds > 0 && Number.isFinite(outcome.seconds))) return `cannot wait ${outcome.seconds} seconds`;
  if (outcome.kind === 'retry' && !(outcome.delayMs >= 0 && Number.isFinite(outcome.delayMs))) return `cannot retry after ${outcome.delayMs} ms`;
  return undefined;
}

/**
 * The outcome with every secret value in its messages and note (at any depth) replaced by
 * `[secret NAME]`. A saved answer (an attribute change) is left as the receiver sent it:
 * echoing a secret back is the receiver's choice.
 */
function redacted(outcome: StepOutcome, redact: (text: string) => string): StepOutcome {
  if (outcome.kind === 'fail' || outcome.kind === 'retry') return { ...outcome, error: redact(outcome.error) };
  if ((outcome.kind === 'next' || outcome.kind === 'change') && outcome.note) return { ...outcome, note: maskSecrets(outcome.note, redact) as Record<string, unknown> };
  return outcome;
}
