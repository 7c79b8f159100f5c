/**
 * What `npm run test:image` needs of the machine, on Debian: the packages (installed with apt when
 * missing, as root), a Docker engine (dockerd started in the background when none answers), and a
 * docker CLI that builds with BuildKit, which the Dockerfile's secret mounts need.
 */
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { eventually } from '../support/automation-helpers.js';

const run = promisify(execFile);
const ENGINE_START_MS = 60_000;
const LOG_TAIL_LINES = 40;

export const isRoot = () => process.getuid?.() === 0;

async function succeeds(file: string, args: string[]): Promise<boolean> {
  return run(file, args).then(() => true, () => false);
}

const onPath = (command: string) => succeeds('sh', ['-c', 'command -v "$1"', 'sh', command]);

/**
 * Installs, with apt, the package of every command (key) that is not on PATH; answers the
 * packages it installed.
 */
export async function ensureDebianPackages(packageOf: Record<string, string>): Promise<string[]> {
  const missing: string[] = [];
  for (const [command, pkg] of Object.entries(packageOf)) if (!(await onPath(command))) missing.push(pkg);
  if (missing.length === 0) return [];
  if (!isRoot()) throw new Error(`${missing.join(' and ')} missing: install with \`apt-get install -y ${missing.join(' ')}\` as root, or run this as root`);
  const apt = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 };
  await run('apt-get', ['update', '-qq'], apt);
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], apt);
  return missing;
}

/**
 * The docker CLI to use: the first on PATH when it has the buildx plugin (`docker build` is BuildKit
 * then); else one older than 23.0 (Debian 12's docker.io: BuildKit is built in and
 * DOCKER_BUILDKIT=1 selects it). A newer CLI without buildx only has the legacy builder.
 */
export async function buildKitCli(): Promise<string> {
  for (const cli of ['docker', '/usr/bin/docker']) {
    if (await succeeds(cli, ['buildx', 'version'])) return cli;
    const version = await run(cli, ['--version']).then(({ stdout }) => /version (\d+)\./.exec(stdout)?.[1], () => undefined);
    if (version !== undefined && Number(version) < 23) return cli;
  }
  throw new Error('no docker CLI here builds with BuildKit: install the buildx plugin (Debian: docker-buildx; Docker\'s packages: docker-buildx-plugin)');
}

/** The last lines of a log file, for a failure to quote. */
export function lastLines(logFile: string, count = LOG_TAIL_LINES): string {
  return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
}

/**
 * Runs a command with its output, stdout and stderr in the order written, in `logFile`; a failure
 * names the command and quotes the log's last lines.
 */
export async function logged(file: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }, logFile: string): Promise<void> {
  const log = openSync(logFile, 'w');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', log, log] });
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
  }).finally(() => closeSync(log));
  if (code === 0) return;
  throw new Error(`${file} ${args[0]} failed (${code === null ? 'killed' : `exit ${code}`}); the end of ${logFile}:\n${lastLines(logFile)}`);
}

/** Env for every docker command: BuildKit for builds (a no-op with buildx). */
export const DOCKER_ENV = { ...process.env, DOCKER_BUILDKIT: '1' };

export async function docker(cli: string, args: string[], env: NodeJS.ProcessEnv = DOCKER_ENV): Promise<string> {
  try {
    return (await run(cli, args, { env, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`docker ${args[0]} failed: ${stderr?.trim() || String(err)}`);
  }
}

/**
 * Makes sure an engine answers, else starts dockerd (installed with docker.io when missing; with
 * systemd when the machine runs it, else in the background, logging to `logFile`). Answers
 * whether it started one, and the packages it installed.
 */
export async function ensureEngine(logFile: string): Promise<{ started: boolean; installed: string[] }> {
  const answers = () => succeeds('docker', ['info', '--format', '{{.ServerVersion}}']);
  if (await answers()) return { started: false, installed: [] };
  if (!isRoot()) throw new Error('no Docker engine answers, and only root can start one: start dockerd (`systemctl start docker`), or run this as root');
  const installed = await ensureDebianPackages({ dockerd: 'docker.io', docker: 'docker.io' });
  if (existsSync('/run/systemd/system')) {
    await run('systemctl', ['start', 'docker']);
  } else {
    const log = openSync(logFile, 'a');
    // It outlives this run on purpose, like the service it stands for: the next run finds it.
    spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] }).unref();
  }
  await eventually('dockerd to answer', async () => ((await answers()) ? true : undefined), {
    timeoutMs: ENGINE_START_MS,
    explain: async () => `see ${logFile}`,
  });
  return { started: true, installed };
}
