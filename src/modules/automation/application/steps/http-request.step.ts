import { StepType, type StepArgumentsCheck, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';
import { unstorableNumber } from '../../../../shared/json/json-numbers.js';
import { nestsDeeperThan } from '../../../../shared/json/json-text.js';
import { MAX_NESTING_DEPTH } from '../../../../shared/http/json-body-parser.js';
import { pointer } from '../../../../shared/json/json-pointer.js';
import { checkHttpRequest } from '../../../workflows/domain/http-request-definition.js';
import { renderHeaders, renderUrl, secretNamesIn } from '../../domain/request-templates.js';
import { render, type TemplateScope } from '../../domain/templates.js';
import { stepFailure } from './attribute-merge.js';
import { HTTP_REQUEST_ARGUMENTS } from './http-request.arguments.js';

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
@StepType()
export class HttpRequestStep implements StepTypeDefinition<HttpRequestArg> {
  readonly type = 'http_request';
  readonly external = true;
  readonly argumentsSchema = HTTP_REQUEST_ARGUMENTS;

  /** Where templates and secrets may stand, and the schema's refusals worded as definitions always did. */
  check(args: unknown, { report }: StepArgumentsCheck): void {
    checkHttpRequest(args, '', report);
  }

  async run(context: StepContext<HttpRequestArg>): Promise<StepOutcome> {
    const spec = context.arguments;
    // Definitions allow secrets only in headers, url query values and body (http-request-definition.ts).
    const names = [...secretNamesIn([spec.url, spec.headers, spec.body])];
    // Refused at save since, but a version published before stays as it was.
    if (spec.url_from_attribute === true && names.length) return { kind: 'fail', error: `${this.type}: a url taken from an attribute cannot carry secrets; nothing was sent` };
    const { found, missing } = await context.secrets(names);
    if (missing.length) {
      const which = missing.length === 1 ? `secret ${missing[0]} does` : `secrets ${missing.join(', ')} do`;
      return { kind: 'fail', error: `${this.type}: ${which} not exist` };
    }
    const { attributes, ...fields } = context.case;
    return this.call(spec, context, { case: fields, attributes: attributes as Record<string, unknown>, secrets: found });
  }

  private async call(spec: HttpRequestArg, context: StepContext<HttpRequestArg>, scope: TemplateScope): Promise<StepOutcome> {
    const url = renderUrl(spec.url, spec.url_from_attribute === true, scope);
    if (!url.ok) return { kind: 'fail', error: `${this.type}: ${url.error}` };
    const headers = renderHeaders(spec.headers ?? {}, scope);
    if (!headers.ok) return { kind: 'fail', error: `${this.type}: ${headers.error}; nothing was sent` };
    const body = spec.body === undefined ? undefined : JSON.stringify(render(spec.body, scope));
    const target = describe(url.value);
    let failure: string;
    try {
      const response = await context.http.send({
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
        if (typeof answer === 'string' && answerNestsTooDeep(response.text)) {
          return stepFailure(this.type, [{ path: pointer('', spec.save_response_as), error: `the answer nests deeper than ${MAX_NESTING_DEPTH} levels of objects and arrays` }]);
        }
        // Checked on the answer's own text: once parsed, 1e131071 would quietly be Infinity.
        const tooLarge = typeof answer === 'string' ? undefined : unstorableNumber(response.text);
        if (tooLarge) return stepFailure(this.type, [{ path: pointer('', spec.save_response_as) + tooLarge.path, error: tooLarge.error }]);
        return { kind: 'change', attributes: { [spec.save_response_as]: answer }, note };
      }
      failure = `${spec.method} ${target} answered ${response.status}`;
    } catch (err) {
      failure = `${spec.method} ${target} failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const retries = spec.retries ?? DEFAULT_RETRIES;
    if (context.attempt >= retries) return { kind: 'fail', error: `http_request: ${failure} (after ${retries} retries)` };
    return { kind: 'retry', delayMs: FIRST_BACKOFF_MS * 2 ** context.attempt, error: failure };
  }
}

/**
 * The answer as JSON when it is JSON nested no deeper than a request body may be, as text
 * otherwise: a receiver's answer nested 100,000 deep would overflow the stack of every walk
 * over it later (masking secrets, storing, showing a test run).
 */
export function parseAnswer(text: string): unknown {
  if (answerNestsTooDeep(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function answerNestsTooDeep(text: string): boolean {
  return nestsDeeperThan(text, MAX_NESTING_DEPTH);
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
