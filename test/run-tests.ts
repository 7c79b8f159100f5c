/**
 * `npm test`: gives this run its own database and Redis key prefix, then runs every unit spec
 * (beside the code, `*.spec.js`), the example extensions' specs (`*.spec.js` under examples/), the
 * architecture specs (`test/architecture/*.spec.js`), the integration specs (`test/integration/*.integration-spec.js`: application services, repositories,
 * the run executor and guards against the real Postgres and Redis, without HTTP) and every
 * end-to-end spec (`test/e2e/*.e2e-spec.js`) with
 * node's test runner. Uses DATABASE_URL / REDIS_URL when set; otherwise starts an embedded
 * Postgres and a local redis-server for the run and stops them afterwards.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useOrStartServers } from '../scripts/local-infra.js';
import { createTestDatabase, dropTestDatabase, flushRedisPrefix } from './support/test-infra.js';

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

async function main(): Promise<number> {
  writeBuildPackageManifest();
  const scratch = await mkdtemp(join(tmpdir(), 'cis-test-'));
  const servers = await useOrStartServers(scratch, false);
  const { postgresUrl: serverUrl, redisUrl } = servers;
  try {
    const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const databaseUrl = await createTestDatabase(serverUrl, `cis_test_${runId}`);
    const redisPrefix = `cis-test-${runId}`;
    const filter = process.argv.slice(2);
    const files = [
      ...specFiles(join(buildRoot, 'src'), /\.spec\.js$/),
      ...specFiles(join(buildRoot, 'examples'), /\.spec\.js$/),
      ...specFiles(join(buildRoot, 'test', 'architecture'), /\.spec\.js$/),
      ...specFiles(join(buildRoot, 'test', 'integration'), /\.integration-spec\.js$/),
      ...specFiles(join(buildRoot, 'test'), /\.e2e-spec\.js$/),
    ]
      .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
      .sort();
    console.log(`test database ${databaseUrl.replace(/\/\/[^@]*@/, '//')}, redis prefix ${redisPrefix}, ${files.length} spec files`);
    try {
      return await new Promise<number>((resolve) => {
        // One spec file at a time, whatever the machine: the files share one database and one Redis
        // prefix, and a worker started by one file takes any organization's jobs (digests, sign-in
        // mails), mailing them to its own file's sink, not the one the asking test reads.
        const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files.map((f) => relative(process.cwd(), f))], {
          stdio: 'inherit',
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            REDIS_URL: redisUrl,
            REDIS_PREFIX: redisPrefix,
            TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
            OPERATOR_TOKEN: `operator-${randomBytes(16).toString('hex')}`,
            OUTBOUND_ALLOW_PRIVATE: 'true',
            LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
          },
        });
        child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      });
    } finally {
      await dropTestDatabase(serverUrl, databaseUrl).catch(() => undefined);
      await flushRedisPrefix(redisUrl, redisPrefix).catch(() => undefined);
    }
  } finally {
    await servers.stop();
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
