/**
 * `npm test`: gives each of this run's lanes its own database and Redis key prefix, then runs every unit spec
 * (beside the code, `*.spec.js`), the example extensions' specs (`*.spec.js` under examples/), the
 * architecture specs (`test/architecture/*.spec.js`), the integration specs (`test/integration/*.integration-spec.js`: application services, repositories,
 * the run executor and guards against the real Postgres and Redis, without HTTP) and every
 * end-to-end spec (`test/e2e/*.e2e-spec.js`) with
 * node's test runner, a file at a time in each lane. Uses DATABASE_URL / REDIS_URL when set; otherwise starts an embedded
 * Postgres and a local redis-server for the run and stops them afterwards. With TEST_READ_REPLICA=1
 * (`npm run test:replica`), against a primary and a streaming replica of its own (see `withReplica`).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useOrStartServers } from '../scripts/local-infra.js';
import { startReplicatedPostgres } from './support/replicated-postgres.js';
import { createTestDatabase, dropTestDatabase, flushRedisPrefix, sameDatabaseOn } from './support/test-infra.js';

const buildRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..');

function specFiles(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return specFiles(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

/**
 * The package's own name, as the example extension imports it (`case-intake-service/extension-api`),
 * must reach this build's copy of the extension API, the one the specs start the service with
 * (its decorators are matched by identity), not dist/: the build gets a package.json of its own,
 * the nearest one for every file in it, whose exports point where tsc put the same sources.
 */
function writeBuildPackageManifest(): void {
  const manifest = JSON.parse(readFileSync(join(buildRoot, '..', 'package.json'), 'utf8')) as { name: string; type: string; exports: Record<string, unknown> };
  const exports = JSON.parse(JSON.stringify(manifest.exports).replaceAll('"./dist/', '"./src/')) as unknown;
  writeFileSync(join(buildRoot, 'package.json'), `${JSON.stringify({ name: manifest.name, type: manifest.type, private: true, exports }, null, 2)}\n`);
}

/**
 * How many spec files run at once (TEST_LANES, default: three, or one on a one-core machine). Each
 * lane has its own database and Redis prefix and runs its files one at a time, as the files of one
 * lane share them and a worker started by one file takes any organization's jobs of its lane
 * (digests, sign-in mails), mailing them to its own file's sink, not the one the asking test reads.
 * Three on two cores, not two: end-to-end specs spend much of their time waiting (for a worker's
 * pass, a timer, a process to start), and two lanes left the cores 30-50 % idle; `npm test` took
 * 11 minutes instead of 16.5 on a two-core machine.
 */
function laneCount(): number {
  const asked = process.env.TEST_LANES;
  if (asked === undefined) return availableParallelism() === 1 ? 1 : 3;
  const lanes = Number(asked);
  if (!Number.isInteger(lanes) || lanes < 1) throw new Error(`TEST_LANES must be a positive integer, not ${JSON.stringify(asked)}`);
  return lanes;
}

/** A spec that drives Chromium through test/support/browser.ts. */
function drivesBrowser(file: string): boolean {
  return /from '\.\.\/support\/browser\.js'/.test(readFileSync(file, 'utf8'));
}

/**
 * The spec files whose names contain one of `filter`'s parts (all when empty): end-to-end first, the longest tier, so the lanes end together.
 * Against a replica only the end-to-end and integration tiers without the browser specs: the unit and
 * architecture specs use no database, and which Postgres answers a read is decided on the server
 * (ReplicaReads), the same for a page as for any API client, so the API end-to-end specs, which make
 * the same requests, cover it; the browser specs took a third of this run's time (CI budget).
 */
function selectSpecFiles(filter: string[], withReplica: boolean): string[] {
  const endToEnd = specFiles(join(buildRoot, 'test'), /\.e2e-spec\.js$/);
  const tiers = [
    withReplica ? endToEnd.filter((file) => !drivesBrowser(file)) : endToEnd,
    specFiles(join(buildRoot, 'test', 'integration'), /\.integration-spec\.js$/),
    ...(withReplica ? [] : [
      specFiles(join(buildRoot, 'test', 'architecture'), /\.spec\.js$/),
      [...specFiles(join(buildRoot, 'src'), /\.spec\.js$/), ...specFiles(join(buildRoot, 'examples'), /\.spec\.js$/)],
    ]),
  ];
  return tiers.flatMap((files) => files.filter((f) => filter.length === 0 || filter.some((part) => f.includes(part))).sort());
}

interface Lane {
  env: NodeJS.ProcessEnv;
  describe: string;
}

interface FileResult {
  file: string;
  code: number;
  output: string;
  seconds: number;
}

/** Runs one spec file with node's test runner; its output is kept and printed whole, so lanes never interleave lines. */
function runSpecFile(file: string, lane: Lane): Promise<FileResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { env: lane.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code, signal) =>
      resolve({ file, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8'), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

async function runLanes(files: string[], lanes: Lane[]): Promise<FileResult[]> {
  const queue = [...files];
  const results: FileResult[] = [];
  await Promise.all(
    lanes.map(async (lane) => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const result = await runSpecFile(relative(process.cwd(), file), lane);
        results.push(result);
        console.log(`# ${result.code === 0 ? 'ok' : 'FAILED'} ${result.file} in ${result.seconds.toFixed(1)} s (${lane.describe}, ${results.length}/${files.length})\n${result.output}`);
      }
    }),
  );
  return results;
}

/**
 * TEST_READ_REPLICA=1 (`npm run test:replica`): the run's Postgres is a primary with a streaming
 * replica of its own (startReplicatedPostgres, whatever DATABASE_URL says), and every lane gets
 * DATABASE_READ_URL, its database on the replica, beside DATABASE_URL on the primary.
 */
const withReplica = process.env.TEST_READ_REPLICA === '1';

async function main(): Promise<number> {
  // The lanes get their own (or none): one from the environment names another database than theirs.
  delete process.env.DATABASE_READ_URL;
  writeBuildPackageManifest();
  const scratch = await mkdtemp(join(tmpdir(), 'cis-test-'));
  const started = Date.now();
  const replicated = withReplica ? await startReplicatedPostgres(scratch) : undefined;
  if (replicated) console.log(`a Postgres primary and its streaming replica started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const servers = await useOrStartServers(scratch, false, replicated?.primaryUrl).catch(async (err: unknown) => {
    await replicated?.stop();
    throw err;
  });
  const { postgresUrl: serverUrl, redisUrl } = servers;
  const lanes: (Lane & { databaseUrl: string; redisPrefix: string })[] = [];
  try {
    const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const files = selectSpecFiles(process.argv.slice(2), withReplica);
    const count = Math.min(laneCount(), Math.max(1, files.length));
    for (let i = 1; i <= count; i++) {
      const databaseUrl = await createTestDatabase(serverUrl, `cis_test_${runId}_${i}`, replicated?.replicaUrl);
      const readUrl = replicated && sameDatabaseOn(replicated.replicaUrl, databaseUrl);
      const redisPrefix = `cis-test-${runId}-${i}`;
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATABASE_READ_URL: readUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        OPERATOR_TOKEN: `operator-${randomBytes(16).toString('hex')}`,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      };
      lanes.push({ env, databaseUrl, redisPrefix, describe: `lane ${i}` });
      const withoutPassword = (url: string) => url.replace(/\/\/[^@]*@/, '//');
      console.log(`lane ${i}: test database ${withoutPassword(databaseUrl)}${readUrl ? ` (read from ${withoutPassword(readUrl)})` : ''}, redis prefix ${redisPrefix}`);
    }
    console.log(`${files.length} spec files in ${count} lane(s)`);
    const results = await runLanes(files, lanes);
    const failed = results.filter((r) => r.code !== 0);
    // Again at the end, where a reader of a long log looks first.
    for (const result of failed) console.log(`# FAILED ${result.file}\n${result.output}`);
    const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    console.log(`slowest spec files: ${slowest.map((r) => `${r.file} ${r.seconds.toFixed(0)} s`).join(', ')}`);
    const tests = (name: string) => results.reduce((sum, r) => sum + Number(new RegExp(`^ℹ ${name} (\\d+)$`, 'm').exec(r.output)?.[1] ?? 0), 0);
    console.log(`tests ${tests('tests')}, passed ${tests('pass')}, failed ${tests('fail')}; ${results.length - failed.length} of ${results.length} spec files passed${failed.length ? `; failed: ${failed.map((r) => r.file).join(', ')}` : ''}`);
    return failed.length ? 1 : 0;
  } finally {
    for (const lane of lanes) {
      await dropTestDatabase(serverUrl, lane.databaseUrl).catch(() => undefined);
      await flushRedisPrefix(redisUrl, lane.redisPrefix).catch(() => undefined);
    }
    await servers.stop();
    await replicated?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
