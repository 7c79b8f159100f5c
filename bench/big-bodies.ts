/**
 * Big bodies: 64 connections post webhook bodies just under the 1 MB limit to the service, as
 * senders of attachments do. The service must answer every one (no error, no 413) while its API
 * process stays within its memory budget: its peak RSS (VmHWM) is read after the run.
 */
import { setTimeout } from 'node:timers/promises';
import { type BenchContext, loadTarget } from './context.js';
import type { Measurement } from './load.js';
import { bigWebhookBody } from './payloads.js';
import { procStatusKb } from './procs.js';

export const BIG_BODY_BYTES = 1_040_000;
const CONNECTIONS = 64;
const SETTLE_MS = 3000;

export interface BigBodiesResult {
  connections: number;
  bodyBytes: number;
  measurement: Measurement;
  /** The API process's peak RSS over its whole life, read after this run. */
  peakRssMb: number | null;
}

export async function runBigBodies(ctx: BenchContext, log: (line: string) => void): Promise<BigBodiesResult> {
  const requests = [0, 1, 2, 3].map(() => ({ method: 'POST' as const, path: ctx.fixtures.intake.webhookPath, headers: { 'content-type': 'application/json' }, body: bigWebhookBody(BIG_BODY_BYTES) }));
  const measurement = await loadTarget(ctx, ctx.targets.service, requests, 201, CONNECTIONS, ctx.config.durationSec);
  // The peak is read once the service is done with the bodies it still held when the load
  // stopped (those waiting for the body budget are dropped as their connections close).
  await setTimeout(SETTLE_MS);
  const peakKb = procStatusKb(ctx.targets.service.process.pid, 'VmHWM');
  const peakRssMb = peakKb === null ? null : peakKb / 1024;
  log(
    `  ${CONNECTIONS} connections, ${BIG_BODY_BYTES.toLocaleString('en-US')} bytes: ${measurement.requestsPerSec.toFixed(0)} req/s, p99 ${measurement.latencyMs.p99.toFixed(0)} ms, ` +
      `errors ${measurement.errors + measurement.timeouts}, non-2xx ${measurement.non2xx}; API peak RSS ${peakRssMb?.toFixed(0) ?? 'unknown'} MB`,
  );
  return { connections: CONNECTIONS, bodyBytes: BIG_BODY_BYTES, measurement, peakRssMb };
}
