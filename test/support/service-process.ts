/** The compiled service as a real child process (ROLE=api or worker), for tests that kill and restart things. */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/local-infra.js';
import { eventually, type Requester } from './automation-helpers.js';
import type { InjectResult, RequestOptions } from './test-app.js';
import { readUrlFor } from './test-infra.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const OUTPUT_LINES = 40;

export interface ServiceProcess extends Requester {
  role: 'api' | 'worker' | 'all';
  /** Its process id, to read what it holds (/proc). */
  pid: number;
  /** `http://127.0.0.1:<port>`, for requests the Requester does not make (a streamed body). */
  baseUrl: string;
  /** Its last lines of output and exit status, for failure messages. */
  describe(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `node src/main.js` (or `main`, a build elsewhere) with the test run's environment plus
 * `env`. An API process is returned once /healthz answers, as is a worker (which serves its probes
 * too), or once it wrote a line holding `untilLogged` (asking nothing of it: a request logs a line,
 * and so brings out the lines buffered before it), within `startMs` (RUN_DEADLINE_MS unless given).
 * It listens for mail only when `env` sets SMTP_PORT, so processes started side by side never
 * share a port. A start that does not end in time fails with the process's last lines and what
 * `diagnose` tells of the world around it.
 */
export async function spawnService(
  role: ServiceProcess['role'],
  env: Record<string, string>,
  { main = MAIN, startMs, untilLogged, diagnose }: { main?: string; startMs?: number; untilLogged?: string; diagnose?: () => Promise<string> } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const child = spawn(process.execPath, [main], {
    env: { ...inherited, HOST: '127.0.0.1', LOG_LEVEL: 'warn', SMTP_PORT: '0', ...env, DATABASE_READ_URL: readUrlFor(env), PORT: String(port), ROLE: role },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - OUTPUT_LINES));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const service: ServiceProcess = {
    role,
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    describe: () => `${role} process ${child.pid} (${running(child) ? 'running' : `exited ${child.exitCode ?? child.signalCode}`}), output:\n${output.join('\n') || '(none)'}`,
    kill: async (signal = 'SIGKILL') => {
      if (running(child)) child.kill(signal);
      await exited;
    },
    request: (method, url, options) => httpRequest(`http://127.0.0.1:${port}`, method, url, options),
  };
  try {
    await eventually(untilLogged ? `the ${role} process to log "${untilLogged}"` : `the ${role} process to answer /healthz`, async () => {
      assert.ok(running(child), service.describe());
      if (untilLogged) return output.some((line) => line.includes(untilLogged)) || undefined;
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.ok, () => false);
      return ok ? true : undefined;
    }, { timeoutMs: startMs, explain: async () => (diagnose ? `${service.describe()}\n${await diagnose()}` : service.describe()) });
  } catch (err) {
    // A process that never answered would otherwise outlive the test file and keep it from exiting.
    await service.kill();
    throw err;
  }
  return service;
}

/**
 * Starts one process per role, all at once, as spawnService does each. When one does not start,
 * those that did are killed before its failure is thrown: left running, a child's open output
 * keeps the test file from ever exiting (the file then hung CI until its limit).
 */
export async function spawnServices(
  roles: readonly ServiceProcess['role'][],
  env: Record<string, string>,
  options: { startMs?: number } = {},
): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(roles.map((role) => spawnService(role, env, options)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const services = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (!failed) return services;
  await Promise.all(services.map((service) => service.kill()));
  throw failed.reason;
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** The same answer shape as TestApp.request, over real HTTP to `base`. */
export async function httpRequest(base: string, method: string, url: string, { token, body, rawBody, headers = {} }: RequestOptions = {}): Promise<InjectResult> {
  const response = await fetch(base + url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), text, body: parsed };
}
