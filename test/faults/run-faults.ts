/**
 * `npm run test:faults`: the fault scenarios (Postgres restart, Redis restart, worker SIGKILL,
 * two APIs and two workers with one of each SIGKILLed, API SIGTERM, soak) against real service processes on this machine's own embedded Postgres
 * and redis-server, and the read replica SIGKILLed mid-load on a primary and streaming replica of its own, traffic only to 127.0.0.1. Prints a summary table and, last, the line
 * `N passed, M failed`; exits non-zero when a scenario failed.
 *
 * Environment: FAULTS_RATE (req/s of the fault scenarios, default 40), FAULTS_SOAK_SECONDS
 * (default 300), FAULTS_SOAK_RATE (default 50), FAULTS_CATCH_UP_SECONDS (default 65). Arguments: substrings of scenario names to run
 * only those (e.g. `node build/test/faults/run-faults.js redis`).
 */
import { startEventReceiver } from './fixtures.js';
import { printReport, seconds, type ScenarioResult } from './report.js';
import { type Context, type Scenario, SCENARIOS } from './scenarios.js';
import { SETTINGS } from './settings.js';
import { Stack } from './stack.js';
import { Verdict } from './verdict.js';

async function main(): Promise<number> {
  const started = performance.now();
  const filter = process.argv.slice(2).map((s) => s.toLowerCase());
  const scenarios = SCENARIOS.filter((s) => filter.length === 0 || filter.some((f) => s.name.toLowerCase().includes(f)));

  // One stack per kind, started when a scenario first needs it: the embedded Postgres, or a primary and its replica.
  const stacks = new Map<boolean, Stack>();
  const stackFor = async (scenario: Scenario) => {
    const replicated = scenario.replicated === true;
    if (!stacks.has(replicated)) stacks.set(replicated, await (replicated ? Stack.startReplicated() : Stack.start()));
    return stacks.get(replicated)!;
  };
  // Last resort when the runner dies: no service process may outlive it (local-infra looks after Postgres and Redis).
  const killServices = () => [...stacks.values()].flatMap((stack) => stack.livePids()).forEach((pid) => { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } });
  process.once('exit', killServices);
  const receiver = await startEventReceiver();
  const results: ScenarioResult[] = [];
  try {
    console.log(`fault scenarios: ${scenarios.map((s) => s.name).join(', ')} (${SETTINGS.rate} req/s; soak ${SETTINGS.soakSeconds} s at ${SETTINGS.soakRate} req/s; catch-up deadline ${SETTINGS.catchUpMs / 1000} s)`);
    for (const scenario of scenarios) {
      const t0 = performance.now();
      const v = new Verdict(scenario.name);
      console.log(`\n▶ ${scenario.name}`);
      let stack: Stack | undefined;
      try {
        stack = await stackFor(scenario);
        const ctx: Context = { stack, receiver };
        await scenario.run(ctx, v);
      } catch (err) {
        v.fail(`aborted: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        await v.load?.stop();
      } finally {
        await stack?.stopServices();
        await stack?.startPostgres();
        await stack?.startRedis();
        await stack?.replica?.startReplica();
      }
      const result = v.result(performance.now() - t0);
      results.push(result);
      console.log(`${result.failures.length ? '✖' : '✔'} ${scenario.name} in ${seconds(result.elapsedMs)}`);
    }
  } finally {
    await receiver.close();
    for (const stack of stacks.values()) await stack.close();
    process.off('exit', killServices);
  }
  printReport(results);
  const failed = results.filter((r) => r.failures.length > 0).length;
  console.log(`\ntotal time ${seconds(performance.now() - started)}`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed > 0 || results.length === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    console.log(`0 passed, ${SCENARIOS.length} failed`);
    process.exit(1);
  },
);
