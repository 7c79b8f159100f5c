/**
 * `npm run start:local` as a newcomer meets it: the compiled script started as npm starts it, on
 * a database and Redis prefix of its own (so the ids it prints are those of a fresh machine), its
 * banner read the way a user copies from it, and every printed command run in order by a real
 * shell, each checked for what its comment says.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/local-infra.js';
import { assertNoPageProblems, launchChromium, newContext, openPage } from '../support/browser.js';
import { eventually } from '../support/automation-helpers.js';
import { INVITATION_SUBJECT } from '../support/digest-helpers.js';
import { createTestDatabase, dropTestDatabase, flushRedisPrefix, readUrlFor } from '../support/test-infra.js';

const START_LOCAL = fileURLToPath(new URL('../../scripts/start-local.js', import.meta.url));
// Compiled to build/test/e2e/: the repository is three levels up.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
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

/** A running `node build/scripts/start-local.js` (what `npm run start:local` runs once it has built), its banner printed. */
interface StartLocal {
  output(): string;
  /** Ctrl-C, as a terminal sends it, and its exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startLocal(cwd: string, env: Record<string, string>): Promise<StartLocal> {
  const { NODE_TEST_CONTEXT: _, SMTP_RELAY_URL: __, HOST: ___, PUBLIC_BASE_URL: ____, ...inherited } = process.env;
  const child = spawn(process.execPath, [START_LOCAL], { cwd, env: { ...inherited, ...env, DATABASE_READ_URL: readUrlFor(env) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await eventually('the banner', async () => {
    assert.equal(child.exitCode, null, output);
    return output.includes(READY) ? true : undefined;
  }, { timeoutMs: 120_000, explain: async () => output });
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** The demo owner's sign-in link as the banner prints it, with what it says the link is. */
function printedOwnerLink(output: string, base: string): string {
  const printed = new RegExp(`^Demo owner owner@example\\.com: sign in at (${base}/auth/link/sil_[A-Za-z0-9_-]+) {2}\\(a sign-in link: one use, valid 15 minutes; each start prints a new one\\)$`, 'm').exec(output);
  assert.ok(printed, output);
  return printed[1]!;
}

/** Opens the link's page and presses its button, as a person does: the session's cookie. */
async function signInWithLink(link: string, base: string): Promise<string> {
  const page = await fetch(link);
  assert.match(await page.text(), /<button type="submit">Sign in<\/button>/);
  const pressed = await fetch(link, { method: 'POST', redirect: 'manual', headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(pressed.status, 303);
  return pressed.headers.get('set-cookie')!.split(';')[0]!;
}

async function me(base: string, cookie: string): Promise<[string, string, string]> {
  const body = (await (await fetch(`${base}/api/admin/v1/me`, { headers: { cookie } })).json()) as { caller: { type: string; name: string }; role: string };
  return [body.caller.type, body.caller.name, body.role];
}

/** The local mail sink's page, from the banner's line of its own. */
function printedMailPage(output: string): string {
  const printed = /^Local mail: (http:\/\/localhost:\d+\/) {2}\(every mail the service sends lands here\)$/m.exec(output);
  assert.ok(printed, output);
  return printed[1]!;
}

/** The newest mail with this subject on the sink's page: its page's address, once it is there. */
async function mailInSink(mailPage: string, subject: string): Promise<string> {
  return eventually(`"${subject}" in the local mail sink`, async () => {
    const href = new RegExp(`href="(/messages/[^"]+)">${subject}<`).exec(await (await fetch(mailPage)).text())?.[1];
    return href && new URL(href, mailPage).toString();
  });
}

describe('npm run start:local, its banner and every line it prints', () => {
  const serverUrl = process.env.DATABASE_URL!;
  const redisPrefix = `${process.env.REDIS_PREFIX}-start-local`;
  let databaseUrl: string;
  let dir: string;
  let run: StartLocal;
  let output = '';
  let port: number;
  let smtpPort: number;

  before(async () => {
    databaseUrl = await createTestDatabase(serverUrl, `cis_demo_${Date.now().toString(36)}`);
    dir = await mkdtemp(join(tmpdir(), 'cis-start-local-'));
    [port, smtpPort] = [await freePort(), await freePort()];
    run = await startLocal(dir, { DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, PORT: String(port), SMTP_PORT: String(smtpPort) });
    output = run.output();
  });
  after(async () => {
    await run?.stop();
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
    const cookie = await signInWithLink(printedOwnerLink(output, base), base);
    assert.deepEqual(await me(base, cookie), ['user', 'owner@example.com', 'owner']);
  });

  it('prints the local mail sink on a line of its own, and a mail\'s Sign in link there opens the sign-in page in a new tab', async () => {
    const base = `http://localhost:${port}`;
    const mailPage = printedMailPage(output);
    const invitation = await mailInSink(mailPage, 'You are invited to the Case Intake Service');
    const browser = await launchChromium();
    try {
      const context = await newContext(browser, mailPage);
      const page = await openPage(context);
      await page.goto(invitation);
      const [opened] = await Promise.all([
        context.waitForEvent('page', { timeout: 15_000 }),
        page.frameLocator('iframe').getByRole('link', { name: 'Sign in' }).click(),
      ]);
      await opened.getByRole('button', { name: 'Sign in' }).click();
      await opened.waitForURL(`${base}/dashboard/`);
      assert.equal(page.url(), invitation, 'the mail stays open where it was');
      assertNoPageProblems(page);
    } finally {
      await browser.close();
    }
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
      { at: find(/reports\/cases/), check: async (c: Printed) => {
        const { report } = await json(c.command);
        assert.ok(report.totals.created >= 3);
        assert.match(report.series[0].start, /T00:00:00Z$/, 'days start at UTC midnight');
      } },
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

describe('npm run start:local, started seven times in a row', () => {
  const serverUrl = process.env.DATABASE_URL!;
  const redisPrefix = `${process.env.REDIS_PREFIX}-start-local-restarts`;
  let databaseUrl: string;
  let dir: string;
  let run: StartLocal | undefined;

  before(async () => {
    databaseUrl = await createTestDatabase(serverUrl, `cis_restarts_${Date.now().toString(36)}`);
    dir = await mkdtemp(join(tmpdir(), 'cis-start-local-restarts-'));
  });
  after(async () => {
    await run?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (databaseUrl) await dropTestDatabase(serverUrl, databaseUrl);
    await flushRedisPrefix(process.env.REDIS_URL!, redisPrefix);
  });

  // More starts than the sign-in requests an address may make in 15 minutes: a start spends none of them.
  it('prints a working sign-in link for the demo owner every time, and "Email me a sign-in link" still mails one after', async () => {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const env = { DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, PORT: String(port), SMTP_PORT: '0' };
    for (let start = 1; start <= 7; start++) {
      run = await startLocal(dir, env);
      const cookie = await signInWithLink(printedOwnerLink(run.output(), base), base);
      assert.deepEqual(await me(base, cookie), ['user', 'owner@example.com', 'owner'], `start ${start}`);
      if (start < 7) assert.deepEqual(await run.stop(), { code: 0, signal: null }, run.output());
    }
    const asked = await fetch(`${base}/auth/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email: 'owner@example.com' }) });
    assert.equal(asked.status, 202);
    const mail = await (await fetch(await mailInSink(printedMailPage(run!.output()), 'Your sign-in link'))).text();
    const link = new RegExp(`${base}/auth/link/sil_[A-Za-z0-9_-]+`).exec(mail)?.[0];
    assert.ok(link, mail);
    assert.deepEqual(await me(base, await signInWithLink(link, base)), ['user', 'owner@example.com', 'owner']);
  });
});

describe('npm run start:local with its port taken', () => {
  const steps = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:local']!.split(' && ');

  function sh(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { HOST: _, PORT: __, SMTP_PORT: ___, ...inherited } = process.env;
    return new Promise((resolve) => {
      execFile('sh', ['-c', script], { cwd: ROOT, env: { ...inherited, ...env }, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }));
    });
  }

  it('stops before it builds, with one line naming the port and what to set, for PORT and for SMTP_PORT', async () => {
    const check = steps.indexOf('node scripts/check-ports.mjs');
    const build = steps.findIndex((step) => /generate:api-metadata|^tsc |^vite /.test(step));
    assert.ok(check >= 0 && check < build, `the ports are checked before the build: ${steps.join(' && ')}`);
    const upToCheck = steps.slice(0, check + 1).join(' && ');
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const taken = String((held.address() as AddressInfo).port);
    try {
      const free = String(await freePort());
      for (const [name, env] of [['PORT', { PORT: taken, SMTP_PORT: free }], ['SMTP_PORT', { PORT: free, SMTP_PORT: taken }]] as const) {
        const { code, stdout, stderr } = await sh(upToCheck, env);
        assert.deepEqual({ code, stdout, stderr }, { code: 1, stdout: '', stderr: `port ${taken} is in use: set ${name}=<free port> (or stop what listens there)\n` });
      }
      assert.equal((await sh(upToCheck, { PORT: free, SMTP_PORT: '0' })).code, 0, 'free ports, and SMTP off, pass');
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
