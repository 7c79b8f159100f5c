import type { GuardedHttp, GuardedHttpRequest } from '../../../extension-api/step-types.js';
import { parseAnswer } from './steps/http-request.step.js';

/** Marks what a test run sends, so a receiver can tell it from a real run's call. */
export const TEST_RUN_HEADER = 'X-Case-Intake-Test-Run';
/** How much of an answer a test run shows. */
const SHOWN_BODY_CHARS = 4_096;

/** A request as a test run shows it: every secret value replaced by `[secret NAME]`. */
export interface TracedRequest {
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  /** Present when the request was sent and answered. */
  response?: { status: number; body: string };
}

/**
 * The outbound client a step gets in a test run: it records each request as it would go out,
 * and sends it through the guarded client (marked with TEST_RUN_HEADER) only when asked.
 * An unsent request gets an empty 200 as a stand-in answer; the test run ignores whatever the
 * step made of it.
 */
export class TestRunHttp {
  readonly requests: TracedRequest[] = [];

  constructor(readonly sends: boolean, private readonly guarded: GuardedHttp) {}

  client(redact: (text: string) => string): GuardedHttp {
    return {
      send: async (request) => {
        const traced: TracedRequest = { request: shown(request, redact) };
        this.requests.push(traced);
        if (!this.sends) return { status: 200, contentType: undefined, text: '' };
        const response = await this.guarded.send({ ...request, headers: { ...request.headers, [TEST_RUN_HEADER]: 'true' } });
        traced.response = { status: response.status, body: redact(response.text.slice(0, SHOWN_BODY_CHARS)) };
        return response;
      },
    };
  }
}

function shown(request: GuardedHttpRequest, redact: (text: string) => string): TracedRequest['request'] {
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, redact(value)]));
  return { method: request.method, url: redact(request.url), headers, ...(request.body === undefined ? {} : { body: parseAnswer(redact(request.body)) }) };
}
