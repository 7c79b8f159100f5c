/**
 * `npm run test:image`: builds the Dockerfile on this machine and runs the image against this
 * machine's Postgres and Redis (test/image/run-image.ts says what it checks). It takes minutes, so
 * CI (.ci/run) leaves it out. On a Debian machine as root it needs nothing else: it installs
 * docker.io and debootstrap when missing, starts dockerd when no engine answers, and builds the
 * Dockerfile's base image (scripts/node-base-image.sh) when Docker Hub cannot provide it.
 * Prints each step with its time, then a summary; exits non-zero when a step failed.
 *
 * Environment: DATABASE_URL (a database of the Postgres server to use; default
 * postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL (default redis://127.0.0.1:6379),
 * IMAGE_TAG (default case-intake:test), IMAGE_CACHE_DIR (logs, the containers' output, and the base image's Debian
 * packages and npm; default ${XDG_CACHE_HOME:-~/.cache}/case-intake-image).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseImages, buildImage, ensureBaseImages } from './build.js';
import { buildKitCli, docker, ensureEngine } from './docker.js';
import { type Cleanups, runImage } from './run-image.js';
import { Steps } from './steps.js';

// Compiled to build/test/image/: the repository is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const cache = process.env.IMAGE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'case-intake-image');
const tag = process.env.IMAGE_TAG ?? 'case-intake:test';

const installedNote = (packages: string[]) => (packages.length ? `installed ${packages.join(', ')}; ` : '');

async function main(): Promise<number> {
  mkdirSync(cache, { recursive: true });
  const steps = new Steps();
  const cleanups: Cleanups = [];
  const cleanUp = async () => {
    const pending = cleanups.splice(0).reverse();
    const failures: string[] = [];
    for (const undo of pending) await undo().catch((err: unknown) => failures.push(String(err)));
    if (failures.length) throw new Error(`clean-up: ${failures.join('; ')}`);
    return `${pending.length} things removed`;
  };
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void cleanUp().catch((err: unknown) => console.error(String(err))).finally(() => process.exit(code));
    });
  }

  let failed = false;
  try {
    let cli = 'docker';
    await steps.run('Docker engine', async () => {
      const { started, installed } = await ensureEngine(join(cache, 'dockerd.log'));
      cli = await buildKitCli();
      const version = await docker(cli, ['version', '--format', '{{.Server.Version}}']);
      return `${installedNote(installed)}${started ? `started dockerd (log: ${join(cache, 'dockerd.log')})` : 'running'}, engine ${version}, CLI ${cli}`;
    });
    await steps.run('base image', async () => {
      const bases = baseImages(readFileSync(join(root, 'Dockerfile'), 'utf8'));
      const { built, installed } = await ensureBaseImages(cli, root, bases, join(cache, 'base-image.log'));
      return built.length ? `${installedNote(installed)}built ${built.join(', ')} here (scripts/node-base-image.sh)` : `${bases.join(', ')} present`;
    });
    await steps.run('image build', async () => {
      await buildImage(cli, root, tag, join(cache, 'build.log'));
      return `${tag} (log: ${join(cache, 'build.log')})`;
    });
    await runImage({
      cli,
      image: tag,
      nodeVersion: readFileSync(join(root, '.node-version'), 'utf8').trim(),
      postgresUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      logDir: cache,
    }, steps, cleanups);
  } catch (err) {
    failed = true;
    console.error(`\n${err instanceof Error ? err.message : String(err)}\n`);
  } finally {
    await steps.run('clean-up', cleanUp).catch(() => { failed = true; });
  }
  console.log(`\n${steps.summary()}`);
  console.log(failed ? '\nimage test failed' : '\nimage test passed');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
