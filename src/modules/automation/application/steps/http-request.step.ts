import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '../../../../shared/outbound/outbound-http.js';
import { SecretsService } from '../../../secrets/secrets.service.js';
import { redactSecrets, renderHeaders, renderUrl, secretNamesIn } from '../../domain/request-templates.js';
import { render } from '../../domain/templates.js';
import { unstorableNumber } from '../../../../shared/json/json-numbers.js';
import { pointer } from '../../../../shared/json/json-pointer.js';
import { mergeIfValid, stepFailure } from './attribute-merge.js';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

interface HttpRequestArg {
  method: string;
  url: string;
  url_from_attribute?: boolean;
  headers?: Record<string, string>;
  body?: unknown;
  timeout_ms?: number;
  retries?: number;
  save_response_as?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 3;
const FIRST_BACKOFF_MS = 1_000;

/**
 * Calls an outside system. 2xx succeeds (the answer saved as an attribute when asked); other
 * answers and network errors are retried with exponential backoff from 1 s (as parked runs,
 * so no worker sleeps), then fail the run. A worker crash mid-request leaves the step
 * unrecorded, so it runs again: its outcome was unknown.
 */
@Injectable()
export class HttpRequestStep implements StepHandler {
  readonly type = 'http_request';
  readonly external = true;

  constructor(
    private readonly http: OutboundHttp,
    private readonly secrets: SecretsService,
  ) {}

  async execute(arg: unknown, context: StepContext): Promise<StepOutcome> {
    const spec = arg as HttpRequestArg;
    // Definitions allow secrets only in headers, url query values and body (http-request-definition.ts).
    const names = [...secretNamesIn([spec.url, spec.headers, spec.body])];
    // Refused at save since, but a version published before stays as it was.
    if (spec.url_from_attribute === true && names.length) return { kind: 'fail', error: `${this.type}: a url taken from an attribute cannot carry secrets; nothing was sent` };
    const { found, missing } = await this.secrets.resolve(context.case.organizationId, names);
    if (missing.length) {
      const which = missing.length === 1 ? `secret ${missing[0]} does` : `secrets ${missing.join(', ')} do`;
      return { kind: 'fail', error: `${this.type}: ${which} not exist` };
    }
    const redact = redactSecrets(found);
    const outcome = await this.call(spec, { ...context, scope: { ...context.scope, secrets: found } });
    return redacted(outcome, redact);
  }

  private async call(spec: HttpRequestArg, context: StepContext): Promise<StepOutcome> {
    const { scope, run } = context;
    const url = renderUrl(spec.url, spec.url_from_attribute === true, scope);
    if (!url.ok) return { kind: 'fail', error: `${this.type}: ${url.error}` };
    const headers = renderHeaders(spec.headers ?? {}, scope);
    if (!headers.ok) return { kind: 'fail', error: `${this.type}: ${headers.error}; nothing was sent` };
    const body = spec.body === undefined ? undefined : JSON.stringify(render(spec.body, scope));
    const target = describe(url.value);
    let failure: string;
    try {
      const response = await this.http.send({
        method: spec.method,
        url: url.value,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers.value },
        body,
        timeoutMs: spec.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      });
      if (response.status >= 200 && response.status < 300) {
        const note = { method: spec.method, url: target, status: response.status };
        if (!spec.save_response_as) return { kind: 'next', note };
        const answer = parseAnswer(response.text);
        // Checked on the answer's own text: once parsed, 1e131071 would quietly be Infinity.
        const tooLarge = typeof answer === 'string' ? undefined : unstorableNumber(response.text);
        if (tooLarge) return stepFailure(this.type, [{ path: pointer('', spec.save_response_as) + tooLarge.path, error: tooLarge.error }]);
        return mergeIfValid(this.type, { [spec.save_response_as]: answer }, context, note);
      }
      failure = `${spec.method} ${target} answered ${response.status}`;
    } catch (err) {
      failure = `${spec.method} ${target} failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const retries = spec.retries ?? DEFAULT_RETRIES;
    if (run.stepAttempts >= retries) return { kind: 'fail', error: `http_request: ${failure} (after ${retries} retries)` };
    return { kind: 'retry', delayMs: FIRST_BACKOFF_MS * 2 ** run.stepAttempts, error: failure };
  }
}

/**
 * The outcome with every secret value in its messages and note replaced by `[secret NAME]`.
 * A saved answer (`save_response_as`) is left as the receiver sent it: echoing a secret back is
 * the receiver's choice.
 */
function redacted(outcome: StepOutcome, redact: (text: string) => string): StepOutcome {
  if (outcome.kind === 'fail' || outcome.kind === 'retry') return { ...outcome, error: redact(outcome.error) };
  if ((outcome.kind === 'next' || outcome.kind === 'change') && outcome.note) {
    return { ...outcome, note: Object.fromEntries(Object.entries(outcome.note).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v])) };
  }
  return outcome;
}

/** The answer as JSON when it is JSON, as text otherwise. */
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Scheme, host and path only: query strings often carry credentials. */
function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
