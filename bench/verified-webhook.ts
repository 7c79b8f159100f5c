/**
 * The verified webhook next to the plain one: the same bodies posted to two twin workflows of
 * the service, one of which requires a GitHub signature (`X-Hub-Signature-256`, an HMAC-SHA256
 * of the exact body bytes, checked in the body parser before the body is parsed). GitHub's
 * scheme signs the body only, with no timestamp, so each body's header is computed once and
 * autocannon replays it; the service still computes and compares the HMAC on every request.
 * At each connection count the two run in BENCH_ROUNDS alternated rounds (each round starts with
 * the other one, so neither always meets the warmer or the larger database), and each figure is
 * the median of its rounds (medianOf, as in the HTTP scenarios).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { type BenchContext, loadTarget } from './context.js';
import type { LoadRequest, Measurement } from './load.js';
import { medianOf, rotated, webhookRequests } from './http-scenarios.js';
import { errorCount } from './results.js';
import { call, intakeDefinition, publishedWorkflow } from './setup.js';

const WEBHOOKS = ['plain', 'verified'] as const;
type Webhook = (typeof WEBHOOKS)[number];

export interface VerifiedWebhookRow {
  connections: number;
  /** Per webhook, the median of its rounds. */
  results: Record<Webhook, Measurement>;
  /** Per webhook, every round's measurement, in the order they ran. */
  rounds: Record<Webhook, Measurement[]>;
}

export interface VerifiedWebhookResult {
  scheme: 'github';
  rows: VerifiedWebhookRow[];
}

/** The verified webhook's req/s as a share of the plain one's. */
export const verifiedRatio = (row: VerifiedWebhookRow) => row.results.verified.requestsPerSec / row.results.plain.requestsPerSec;

/** A published twin of the intake workflow whose webhook requires GitHub signatures; its requests carry theirs. */
async function signedRequests(ctx: BenchContext): Promise<LoadRequest[]> {
  const base = ctx.targets.service.url;
  const { adminToken } = ctx.fixtures;
  const verified = await publishedWorkflow(base, adminToken, intakeDefinition('Bench verified intake'));
  const secret = randomBytes(32).toString('hex');
  await call(base, 'PUT', `/api/admin/v1/workflows/${verified.id}/webhook/verification`, adminToken, { scheme: 'github', secret });
  return webhookRequests(ctx).map((request) => ({
    ...request,
    path: verified.webhookPath,
    headers: { ...request.headers, 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(request.body!).digest('hex')}` },
  }));
}

export async function runVerifiedWebhook(ctx: BenchContext, log: (line: string) => void): Promise<VerifiedWebhookResult> {
  const requests: Record<Webhook, LoadRequest[]> = { plain: webhookRequests(ctx), verified: await signedRequests(ctx) };
  const rows: VerifiedWebhookRow[] = [];
  for (const connections of ctx.config.connections) {
    const rounds: Record<Webhook, Measurement[]> = { plain: [], verified: [] };
    for (let round = 0; round < ctx.config.rounds; round++) {
      for (const webhook of rotated(WEBHOOKS, round)) {
        const m = await loadTarget(ctx, ctx.targets.service, requests[webhook], 201, connections, ctx.config.durationSec);
        rounds[webhook].push(m);
        log(
          `  ${webhook.padEnd(8)} c=${connections} round ${round + 1} ${m.requestsPerSec.toFixed(0).padStart(6)} req/s  p50 ${m.latencyMs.p50.toFixed(1)} ms  ` +
            `p99 ${m.latencyMs.p99.toFixed(1)} ms  errors ${errorCount(m)}  non2xx ${m.non2xx}  node ${m.cpuPerRequestUs.target.toFixed(0)} us/req`,
        );
      }
    }
    rows.push({ connections, results: { plain: medianOf(rounds.plain), verified: medianOf(rounds.verified) }, rounds });
  }
  return { scheme: 'github', rows };
}
