import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '../../../shared/outbound/outbound-http.js';
import { render } from '../templates.js';
import { unstorableNumber } from '../../../shared/json/json-numbers.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { mergeIfValid, stepFailure } from './attribute-merge.js';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

interface HttpRequestArg {
  method: string;
  url: string;
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

  constructor(private readonly http: OutboundHttp) {}

  async execute(arg: unknown, context: StepContext): Promise<StepOutcome> {
    const { scope, run } = context;
    const spec = arg as HttpRequestArg;
    const url = String(render(spec.url, scope));
    const headers = render(spec.headers ?? {}, scope) as Record<string, string>;
    const body = spec.body === undefined ? undefined : JSON.stringify(render(spec.body, scope));
    const target = describe(url);
    let failure: string;
    try {
      const response = await this.http.send({
        method: spec.method,
        url,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
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
