/**
 * The load generator, run as its own process (`node build/bench/load-worker.js <spec file>`) so it
 * never shares an event loop with the benchmark's parent or with the server under test. Runs
 * autocannon once as the spec says and prints one JSON line: autocannon's counters, plus
 * latency percentiles of the 2xx responses computed from every response time (autocannon's own
 * histogram has 1 ms resolution, too coarse for single-digit-millisecond latencies).
 */
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { LoadResult, LoadSpec } from './load.js';

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

function run(spec: LoadSpec): Promise<LoadResult> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationSec,
        timeout: spec.timeoutSec ?? 10,
        ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
        requests: spec.requests,
      },
      (err, result) => {
        if (err) return reject(err);
        const sorted = Float64Array.from(samples).sort();
        const cpu = process.cpuUsage(); // the whole process, start-up included
        const ok = result['2xx'];
        resolve({
          durationSec: result.duration,
          requestsPerSec: result.requests.average,
          okPerSec: ok / result.duration,
          ok,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
          latencyMs: {
            mean: samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : NaN,
            p50: percentile(sorted, 50),
            p90: percentile(sorted, 90),
            p99: percentile(sorted, 99),
            max: sorted.length ? sorted[sorted.length - 1]! : NaN,
          },
          loadGeneratorCpuMs: (cpu.user + cpu.system) / 1000,
        });
      },
    );
    // The parent ends an open-ended run early with SIGTERM: autocannon then reports as if the time was up.
    process.once('SIGTERM', () => instance.stop());
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  });
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
run(spec).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
