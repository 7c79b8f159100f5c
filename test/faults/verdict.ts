/**
 * What a scenario found, filled in as it goes (so a scenario that throws half-way still
 * reports its load), and the checks every scenario ends with: the answers the load got, the
 * catch-up, and the invariants.
 */
import type { Receiver } from '../support/automation-helpers.js';
import type { Fixture } from './fixtures.js';
import { checkInvariants, describeStuck, type Tally, waitForCatchUp } from './invariants.js';
import type { ServiceProcess } from '../support/service-process.js';
import { type Attempt, CLIENT_TIMEOUT_MS, EXACT_NUMBERS, Load, type LoadOptions, type PostedCase, type Target } from './load.js';
import { type ScenarioResult, seconds } from './report.js';
import { SETTINGS } from './settings.js';
import type { Stack } from './stack.js';

export const CATCH_UP_MS = SETTINGS.catchUpMs;

const TAIL_LINES = 8;

export class Verdict {
  load?: Load;
  tally?: Tally;
  recovery?: string;
  rss?: string;
  readonly failures: string[] = [];
  readonly notes: string[] = [];

  constructor(readonly name: string) {}

  fail(message: string): void {
    this.failures.push(message);
  }

  note(message: string): void {
    this.notes.push(message);
  }

  expect(condition: boolean, message: string): void {
    if (!condition) this.fail(message);
  }

  /** Load on the webhook, or on the cases API when `options.apiToken` is set. */
  startLoad(targets: Target[], fx: Fixture, rate: number, options: Pick<LoadOptions, 'retryStatuses' | 'alternate' | 'apiToken'> = {}): Load {
    const path = options.apiToken ? `/api/external/v1/workflows/${fx.workflowId}/cases` : fx.webhookPath;
    this.load = new Load({ targets, path, rate, ...options });
    return this.load;
  }

  /**
   * Stops the load, checks every answer (only `allowed` statuses, errors as JSON `{"error"}`,
   * no hanging or broken-off request, no request left without an answer), waits for runs and
   * deliveries to catch up and checks the invariants.
   */
  async settle(stack: Stack, receiver: Receiver, fx: Fixture, allowed: number[], reader: ServiceProcess): Promise<void> {
    const load = this.load!;
    await load.stop();
    this.checkAnswers(load, new Set(allowed));
    const caughtUp = await waitForCatchUp(stack.pool, fx, receiver, CATCH_UP_MS);
    if (caughtUp.stuck) {
      this.fail(caughtUp.stuck);
      for (const line of await describeStuck(stack.pool, fx, (queue, id) => stack.bullJob(queue, id))) this.note(line);
      for (const service of stack.describeServices()) this.note(tail(service));
    } else this.note(`runs and deliveries caught up ${seconds(caughtUp.ms)} after the load stopped`);
    const t = (this.tally = await checkInvariants(stack.pool, fx, load.posted, receiver));
    const lost: [number, string][] = [
      [t.casesLost, 'answered 201 without their case (or with other attributes)'],
      [t.runsLost, 'case(s) without their finished Open run'],
      [t.deliveriesLost, 'case.closed event(s) not delivered'],
      [t.duplicates, 'duplicate(s): a case, run, run start, step or delivery happened twice'],
    ];
    for (const [n, what] of lost) if (n > 0) this.fail(`${n} ${what}`);
    if (t.receiverDuplicates) this.note(`${t.receiverDuplicates} webhook-id(s) reached the receiver twice (each delivered once in the log)`);
    if (t.unacknowledged) this.note(`${t.unacknowledged} case(s) exist for requests that were not answered 201`);
    await this.readBack(reader, fx, load.created().at(-1));
  }

  /** The last case created, read through the cases API with the API token: its attributes as posted, to the digit, plus the run's stamp. */
  private async readBack(reader: ServiceProcess, fx: Fixture, posted: PostedCase | undefined): Promise<void> {
    if (!posted) return this.fail('no case was created at all');
    const res = await reader.request('GET', `/api/external/v1/workflows/${fx.workflowId}/cases/${posted.caseId}`, { token: fx.apiToken });
    const attributes = res.body?.case?.attributes;
    const exact = EXACT_NUMBERS.every((n) => new RegExp(`:\\s?${n.replace('.', '\\.')}[,}]`).test(res.text));
    this.expect(
      res.status === 200 && attributes?.nonce === posted.nonce && attributes?.seen === posted.caseId && exact,
      `GET case ${posted.caseId} through the cases API: ${res.status} ${res.text.slice(0, 300)}`,
    );
  }

  private checkAnswers(load: Load, allowed: Set<number>): void {
    const attempts = load.attempts();
    const responses = attempts.filter((a) => a.outcome === 'response');
    const group = (what: string, list: Attempt[]) => {
      if (list.length) this.fail(`${list.length} ${what}, e.g. ${list[0]!.target}: ${list[0]!.status ?? ''} ${list[0]!.error ?? list[0]!.text?.slice(0, 200) ?? ''}`);
    };
    group(`request(s) hung past the ${CLIENT_TIMEOUT_MS / 1000} s client timeout`, attempts.filter((a) => a.outcome === 'timeout'));
    group('response(s) broke off before they were complete', attempts.filter((a) => a.outcome === 'broken'));
    group('request(s) got no answer from any instance', load.posted.map((p) => p.attempts.at(-1)!).filter((a) => a.outcome === 'refused' || a.outcome === 'dropped'));
    for (const status of new Set(responses.map((a) => a.status!))) {
      if (!allowed.has(status)) group(`answer(s) ${status}`, responses.filter((a) => a.status === status));
    }
    group(`201 answer(s) with another body than ${load.createdBody}`, responses.filter((a) => a.status === 201 && !load.createdBody.test(a.text ?? '')));
    group('error answer(s) that are not a JSON {"error": "..."}', responses.filter((a) => a.status !== 201 && !isErrorBody(a.text)));
    const latencies = responses.map((a) => a.endedAt - a.sentAt).sort((x, y) => x - y);
    const at = (q: number) => `${Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)} ms`;
    const retried = load.posted.filter((p) => p.attempts.length > 1).length;
    this.note(`${load.posted.length} requests (${retried} retried on another instance), latency p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}`);
  }

  result(elapsedMs: number): ScenarioResult {
    const attempts = this.load?.attempts() ?? [];
    return {
      name: this.name,
      sent: this.load?.posted.length ?? 0,
      created: this.load?.created().length ?? 0,
      fiveXx: attempts.filter((a) => (a.status ?? 0) >= 500).length,
      hung: attempts.filter((a) => a.outcome === 'timeout').length,
      tally: this.tally,
      recovery: this.recovery,
      rss: this.rss,
      failures: this.failures,
      notes: this.notes,
      elapsedMs,
    };
  }
}

/** The first line (pid and status) and the last lines of a service's output. */
function tail(described: string): string {
  const lines = described.split('\n');
  return [lines[0], ...lines.slice(1).slice(-TAIL_LINES)].join('\n    ');
}

function isErrorBody(text: string | undefined): boolean {
  try {
    const body = JSON.parse(text ?? '') as unknown;
    return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}
