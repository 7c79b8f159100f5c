/**
 * `npm run start:local` as a newcomer meets it: the compiled script started as npm starts it, on
 * a database and Redis prefix of its own (so the ids it prints are those of a fresh machine), its
 * banner read the way a user copies from it, and every printed command run in order by a real
 * shell, each checked for what its comment says.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/local-infra.js';
import { eventually } from '../support/automation-helpers.js';
import { INVITATION_SUBJECT } from '../support/digest-helpers.js';
import { createTestDatabase, dropTestDatabase, flushRedisPrefix } from '../support/test-infra.js';

const START_LOCAL = fileURLToPath(new URL('../../scripts/start-local.js', import.meta.url));
const READY = 'Press Ctrl-C to stop.';

interface Printed {
  /** The comment lines above the command, joined. */
  comment: string;
  /** As a user pastes it: continuation lines included. */
  command: string;
}

/** The banner's commands in order, each with the comment block it follows. */
function printedCommands(banner: string): Printed[] {
  const commands: Printed[] = [];
  let comment = '';
  let inComment = false;
  const lines = banner.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('#')) {
      comment = inComment ? `${comment}\n${line}` : line;
      inComment = true;
      continue;
    }
    inComment = false;
    if (!/^(curl|printf) /.test(line)) continue;
    let command = line;
    while (command.endsWith('\\')) command += `\n${lines[++i]}`;
    commands.push({ comment, command });
  }
  return commands;
}

function shell(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', command], { timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${command}\n${stderr}`)) : resolve(stdout)));
  });
}

const json = async (command: string) => JSON.parse(await shell(command));

function refused(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host, timeout: 2_000 });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
    socket.once('timeout', () => (socket.destroy(), resolve(true)));
  });
}

describe('npm run start:local, its banner and every line it prints', () => {
  const serverUrl = process.env.DATABASE_URL!;
  const redisPrefix = `${process.env.REDIS_PREFIX}-start-local`;
  let databaseUrl: string;
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let port: number;
  let smtpPort: number;

  before(async () => {
    databaseUrl = await createTestDatabase(serverUrl, `cis_demo_${Date.now().toString(36)}`);
    dir = await mkdtemp(join(tmpdir(), 'cis-start-local-'));
    [port, smtpPort] = [await freePort(), await freePort()];
    const { NODE_TEST_CONTEXT: _, SMTP_RELAY_URL: __, HOST: ___, PUBLIC_BASE_URL: ____, ...inherited } = process.env;
    child = spawn(process.execPath, [START_LOCAL], {
      cwd: dir,
      env: { ...inherited, DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, PORT: String(port), SMTP_PORT: String(smtpPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await eventually('the banner', async () => {
      assert.equal(child.exitCode, null, output);
      return output.includes(READY) ? true : undefined;
    }, { timeoutMs: 120_000, explain: async () => output });
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
    if (databaseUrl) await dropTestDatabase(serverUrl, databaseUrl);
    await flushRedisPrefix(process.env.REDIS_URL!, redisPrefix);
  });

  it('names the dashboard and how to sign in to it, and / leads there', async () => {
    const base = `http://localhost:${port}`;
    const dashboard = new RegExp(`^Dashboard: ${base}/dashboard/ {2}sign in with the demo admin token (adm_\\S+)$`, 'm').exec(output);
    assert.ok(dashboard, output);
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/dashboard/');
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200, 'the dashboard is built next to the compiled app (`npm test` builds it)');
    assert.match(await page.text(), /<div id="app"><\/div>/);
    const signedIn = await fetch(`${base}/api/admin/v1/workflows`, { headers: { authorization: `Bearer ${dashboard[1]}` } });
    assert.equal(signedIn.status, 200, 'the printed token is an admin token');
  });

  it('prints the demo owner\'s sign-in link, whose page\'s button signs in as the owner', async () => {
    const base = `http://localhost:${port}`;
    const printed = new RegExp(`^Demo owner owner@example\\.com: sign in at (${base}/auth/link/sil_[A-Za-z0-9_-]+) {2}\\(one use, 15 minutes\\)$`, 'm').exec(output);
    assert.ok(printed, output);
    const page = await fetch(printed[1]!);
    assert.match(await page.text(), /<button type="submit">Sign in<\/button>/);
    const pressed = await fetch(printed[1]!, { method: 'POST', redirect: 'manual', headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(pressed.status, 303);
    const cookie = pressed.headers.get('set-cookie')!.split(';')[0]!;
    const me = (await (await fetch(`${base}/api/admin/v1/me`, { headers: { cookie } })).json()) as { caller: { type: string; name: string }; role: string };
    assert.deepEqual([me.caller.type, me.caller.name, me.role], ['user', 'owner@example.com', 'owner']);
  });

  it('listens on 127.0.0.1 only, HTTP and SMTP, when HOST is not set', async () => {
    assert.match(output, /listening on 127\.0\.0\.1 only \(HOST=0\.0\.0\.0 to open it to other machines\)/);
    const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    assert.ok(outside, 'this machine has an address other than loopback');
    for (const p of [port, smtpPort]) {
      assert.equal(await refused(p, '127.0.0.1'), false, `${p} answers on loopback`);
      assert.equal(await refused(p, outside.address), true, `${p} does not answer on ${outside.address}`);
    }
  });

  it('every printed line, run in order, does what its comment says', async () => {
    const banner = output.slice(output.indexOf('Case intake service is running'));
    const commands = printedCommands(banner);
    const find = (pattern: RegExp) => {
      const at = commands.findIndex((c) => pattern.test(c.command));
      assert.ok(at >= 0, `no printed line matches ${pattern}:\n${banner}`);
      return at;
    };
    const steps = [
      { at: find(/-X POST '[^']*\/cases'/), check: async (c: Printed) => {
        const { case: created } = await json(c.command);
        assert.match(c.comment, /Create a case with the API token/);
        assert.deepEqual([created.id, created.subject], [1, 'Order 1042 arrived damaged']);
      } },
      { at: find(/^curl -s '[^']*\/cases\/1' -H/), check: async (c: Printed) => assert.equal((await json(c.command)).case.id, 1) },
      { at: find(/-X PATCH '[^']*\/cases\/1'/), check: async (c: Printed) => assert.equal((await json(c.command)).case.status, 'Closed') },
      { at: find(/case_webhooks/), check: async (c: Printed) => {
        assert.deepEqual(await json(c.command), { case: { id: 2, source_type: 'Webhook' } });
      } },
      { at: find(/^printf .* \| curl -s smtp:\/\//), check: async (c: Printed) => {
        assert.match(c.comment, /it becomes a case/);
        await shell(c.command);
      } },
      { at: find(/cases\?source=Email'/), check: async (c: Printed) => {
        await eventually('the mailed case', async () => ((await json(c.command)).cases.some((k: { subject: string }) => k.subject === 'Printer on floor 3 is on fire') ? true : undefined));
      } },
      { at: find(/reports\/cases/), check: async (c: Printed) => assert.ok((await json(c.command)).report.totals.created >= 3) },
      { at: find(/-X POST '[^']*\/digests' /), check: async (c: Printed) => assert.deepEqual((await json(c.command)).digest.recipients, ['ops@example.com']) },
      { at: find(/digests\/1\/send/), check: async (c: Printed) => {
        // Sent before the recipient confirmed, as an impatient reader would: told so, and nothing held back.
        assert.deepEqual(await json(c.command), { error: 'no recipient of this digest has confirmed yet: each gets a confirmation email, and the digest goes to those who confirm' });
        assert.match(c.comment, /first gets a confirmation mail: open its link and press Confirm, then send the digest now/);
        const mailPage = /open (http:\/\/localhost:\d+\/)\)/.exec(banner)?.[1];
        assert.ok(mailPage, banner);
        const confirm = await eventually('the confirmation mail in the local mail sink', async () => {
          const list = await (await fetch(mailPage)).text();
          const link = new RegExp(`href="(/messages/[^"]+)">${INVITATION_SUBJECT}<`).exec(list)?.[1];
          if (!link) return undefined;
          return /(http:\/\/localhost:\d+\/digests\/confirm\/[A-Za-z0-9_-]+)/.exec(await (await fetch(new URL(link, mailPage))).text())?.[1];
        });
        assert.match(await (await fetch(confirm)).text(), /<button type="submit">Confirm<\/button>/);
        const pressed = await fetch(confirm, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
        assert.match(await pressed.text(), /<h1>Confirmed<\/h1>/);
        assert.equal(await shell(c.command), '', 'queued (202, no body)');
        await eventually('the digest in the local mail sink', async () => ((await (await fetch(mailPage)).text()).includes('Case report (daily)') ? true : undefined));
      } },
      { at: find(/^curl -s '[^']*\/api\/admin\/v1\/cases' -H/), check: async (c: Printed) => assert.equal((await json(c.command)).cases.length, 3) },
      { at: find(/operator\/v1\/organizations/), check: async (c: Printed) => assert.equal((await json(c.command)).organizations.length, 1) },
    ];
    assert.deepEqual(steps.map((s) => s.at), steps.map((s) => s.at).sort((a, b) => a - b), 'checked in the order printed');
    assert.equal(steps.length, commands.length, 'every printed line is checked');
    for (const step of steps) await step.check(commands[step.at]!);
  });
});
