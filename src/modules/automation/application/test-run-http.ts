import type { GuardedHttp, GuardedHttpRequest } from '../../../extension-api/step-types.js';
import { maskSecrets } from '../domain/request-templates.js';
import { parseAnswer } from './steps/http-request.step.js';

/** Marks what a test run sends, so a receiver can tell it from a real run's call. */
export const TEST_RUN_HEADER = 'X-Case-Intake-Test-Run';
/** How much of an answer a test run shows. */
const SHOWN_BODY_CHARS = 4_096;
/** The most requests one test run sends, over all its steps. */
export const MAX_TEST_RUN_REQUESTS = 20;
/** The longest a test run lasts; a request is given at most what is left of it. */
export const MAX_TEST_RUN_MS = 30_000;

/** A request as a test run shows it: every secret value replaced by `[secret NAME]`. */
export interface TracedRequest {
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  /** Present when the request was sent and answered. */
  response?: { status: number; body: string };
}

/** What one test run may still spend, shared by its steps; `spent` says what ran out first. */
export class TestRunBudget {
  private sent = 0;
  spent: 'requests' | 'time' | undefined;

  constructor(private readonly deadline: number) {}

  /** Whether the run has time left, noting it when it has not. */
  hasTime(now = Date.now()): boolean {
    if (now >= this.deadline) this.spent ??= 'time';
    return this.spent === undefined;
  }

  /** The milliseconds a request may take, or why it may not be sent. */
  takeRequest(timeoutMs: number): number {
    if (this.sent === MAX_TEST_RUN_REQUESTS) this.spent ??= 'requests';
    if (!this.hasTime()) throw new Error(this.explain());
    this.sent += 1;
    return Math.min(timeoutMs, this.deadline - Date.now());
  }

  explain(): string {
    return this.spent === 'requests' ? `the test run sent the ${MAX_TEST_RUN_REQUESTS} requests it may; nothing more was sent` : `the test run took the ${MAX_TEST_RUN_MS / 1000} s it may; it stopped there`;
  }
}

/**
 * The outbound client a step gets in a test run: it records each request as it would go out,
 * and sends it through the guarded client (marked with TEST_RUN_HEADER, which no header of the
 * step's can replace) only when asked, within the run's budget. An unsent request gets an
 * empty 200 as a stand-in answer; the test run ignores whatever the step made of it.
 */
export class TestRunHttp {
  readonly requests: TracedRequest[] = [];
  private redact: (text: string) => string = (text) => text;

  constructor(readonly sends: boolean, private readonly guarded: GuardedHttp, private readonly budget: TestRunBudget) {}

  /**
   * `value` as the test run may show it: an answer the step saved can echo the secrets it sent,
   * which a real run stores as the receiver sent them but a test run's answer never shows.
   */
  shown(value: unknown): unknown {
    return maskSecrets(value, this.redact);
  }

  client(redact: (text: string) => string): GuardedHttp {
    this.redact = redact;
    return {
      send: async (request) => {
        const traced: TracedRequest = { request: shown(request, redact) };
        this.requests.push(traced);
        if (!this.sends) return { status: 200, contentType: undefined, text: '' };
        const timeoutMs = this.budget.takeRequest(request.timeoutMs);
        const headers = Object.fromEntries(Object.entries(request.headers ?? {}).filter(([name]) => name.toLowerCase() !== TEST_RUN_HEADER.toLowerCase()));
        const response = await this.guarded.send({ ...request, timeoutMs, headers: { ...headers, [TEST_RUN_HEADER]: 'true' } });
        // Masked before it is cut: a cut through a secret would leave its start unmasked.
        traced.response = { status: response.status, body: redact(response.text).slice(0, SHOWN_BODY_CHARS) };
        return response;
      },
    };
  }
}

/** The body is masked as parsed values, before it is written out again, so no escaped form of a secret is left. */
function shown(request: GuardedHttpRequest, redact: (text: string) => string): TracedRequest['request'] {
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, redact(value)]));
  return { method: request.method, url: redact(request.url), headers, ...(request.body === undefined ? {} : { body: maskSecrets(parseAnswer(request.body), redact) }) };
}
