/**
 * `npm run stop:local`: stops this clone's running `npm run start:local` as Ctrl-C would.
 * `npm run stop:local -- --purge` then deletes its data: .data/, and the Postgres data that
 * .data/postgres links to when, as root, Postgres could not enter the clone (scripts/local-infra.ts
 * keeps it in /var/tmp/cis-postgres-<hash>/, with the clone's path in `of`); and the same folders
 * of clones deleted since, whose recorded path no longer links there. Plain JavaScript, so it
 * needs no build.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const DATA = resolve('.data');
const RELOCATED = '/var/tmp';
const purge = process.argv.includes('--purge');

const alive = (pid) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};
/** The pid of this clone's start:local, when one runs (a recycled pid works elsewhere: its cwd tells). */
function running() {
  const pid = Number.parseInt(existsSync(join(DATA, 'start-local.pid')) ? readFileSync(join(DATA, 'start-local.pid'), 'utf8') : '', 10);
  if (!(pid > 0) || !alive(pid)) return undefined;
  if (!existsSync('/proc/self/cwd')) return pid;
  try {
    return realpathSync(`/proc/${pid}/cwd`) === realpathSync('.') ? pid : undefined;
  } catch {
    return undefined;
  }
}

const linkTarget = (path) => {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
};
/** The relocated home holding `data`, when it records `link` as its clone's; else undefined. */
const homeOf = (data, link) => {
  const of = join(dirname(data), 'of');
  return existsSync(of) && readFileSync(of, 'utf8').trim() === link ? dirname(data) : undefined;
};
const remove = (path) => {
  rmSync(path, { recursive: true, force: true });
  console.log(`removed ${path}`);
};

const pid = running();
if (pid !== undefined) {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; alive(pid); waited += 100) {
    if (waited > 60_000) {
      console.error(`start:local (pid ${pid}) did not stop within a minute`);
      process.exit(1);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  console.log(`stopped start:local (pid ${pid})`);
} else {
  console.log('start:local is not running in this clone');
}

if (purge) {
  if (existsSync(DATA)) {
    const link = join(realpathSync(DATA), 'postgres');
    const data = linkTarget(link);
    if (data) remove(homeOf(data, link) ?? data);
    remove(DATA);
  }
  for (const name of existsSync(RELOCATED) ? readdirSync(RELOCATED) : []) {
    const home = join(RELOCATED, name);
    const of = join(home, 'of');
    if (!name.startsWith('cis-postgres-') || !existsSync(of)) continue;
    const clone = readFileSync(of, 'utf8').trim();
    if (linkTarget(clone) !== join(home, 'data')) remove(home);
  }
}
