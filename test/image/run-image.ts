/**
 * The built image run the way docs/deploying.md deploys it, against this machine's Postgres and Redis
 * (`--network host`): the migration command on a database of its own, then the image's own
 * command, with a Redis prefix of its own, as ROLE=all and then as a ROLE=api and a ROLE=worker
 * container side by side, each on ports chosen free (HTTP and SMTP), driven over HTTP and SMTP as
 * the walk-through of docs/tour.md does. Everything it creates is registered with `cleanups` before it
 * exists, so a failure or an interrupt leaves nothing behind; a failure quotes the output of
 * every container it started.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../scripts/local-infra.js';
import { eventually } from '../support/automation-helpers.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, type Organization } from '../support/scenario.js';
import { httpRequest } from '../support/service-process.js';
import { deliver, SmtpConversation } from '../support/smtp-client.js';
import { dropTestDatabase, flushRedisPrefix } from '../support/test-infra.js';
import type { TestApp } from '../support/test-app.js';
import { docker, DOCKER_ENV, lastLines, logged } from './docker.js';
import type { Steps } from './steps.js';

const START_TIMEOUT_MS = 60_000;
/** The Dockerfile's HEALTHCHECK probes every 10 s. */
const HEALTHY_TIMEOUT_MS = 40_000;
const STOP_TIMEOUT_S = 20;

export interface Target {
  cli: string;
  image: string;
  /** The Node.js release the image must run (.node-version). */
  nodeVersion: string;
  /** Any database URL of the Postgres server; the run creates its own database there. */
  postgresUrl: string;
  redisUrl: string;
  /** Where the migration's and each container's whole output are written. */
  logDir: string;
}

/** What to undo, each pushed before the thing exists; run last in, first out, after success, failure or interrupt. */
export type Cleanups = Array<() => Promise<unknown>>;

type Role = 'all' | 'api' | 'worker';

/** A running container of the image. */
interface Service {
  role: Role;
  container: string;
  base: string;
  port: number;
  smtpPort: number;
}

export async function runImage(target: Target, steps: Steps, cleanups: Cleanups): Promise<void> {
  const { cli, image } = target;
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const server = new URL(target.postgresUrl);
  server.pathname = '/postgres';
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/cis_image_${id}`;
  const operatorToken = randomBytes(24).toString('hex');
  // Values go to `docker run -e NAME` through the CLI's environment, never on a command line.
  const settings: Record<string, string> = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: target.redisUrl,
    REDIS_PREFIX: `cis-image-${id}`,
    HOST: '127.0.0.1',
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    OPERATOR_TOKEN: operatorToken,
    // What a failure quotes of its output: warnings and errors, not every route mapped at start.
    LOG_LEVEL: 'warn',
  };
  const withSettings = (values: Record<string, string>) => ({
    args: Object.keys(values).flatMap((name) => ['-e', name]),
    env: { ...DOCKER_ENV, ...values },
  });

  await steps.run('image settings', async () => {
    const config = JSON.parse(await docker(cli, ['image', 'inspect', '--format', '{{json .Config}}', image])) as { User: string; Healthcheck?: unknown };
    assert.equal(config.User, 'node', 'the image runs as the node user');
    assert.ok(config.Healthcheck, 'the image has a HEALTHCHECK');
    const bytes = Number(await docker(cli, ['image', 'inspect', '--format', '{{.Size}}', image]));
    return `USER node, ${Math.round(bytes / 1e6)} MB`;
  });

  await steps.run('database', async () => {
    cleanups.push(() => dropTestDatabase(server.toString(), databaseUrl.toString()));
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${databaseUrl.pathname.slice(1)}`);
    } finally {
      await admin.end();
    }
    return databaseUrl.pathname.slice(1);
  });

  await steps.run('migration', async () => {
    const migrate = withSettings({ DATABASE_URL: settings.DATABASE_URL! });
    const log = join(target.logDir, 'migration.log');
    await logged(cli, ['run', '--rm', '--network', 'host', ...migrate.args, image, 'node', 'dist/shared/database/migrate.js'], { env: migrate.env }, log);
    const out = readFileSync(log, 'utf8').trim();
    assert.match(out, /^applied: \w+/m, `the migration applied nothing: ${out}`);
    return out.split('\n').at(-1)!.split(',').length + ' migrations';
  });

  const started: Service[] = [];
  cleanups.push(() => flushRedisPrefix(target.redisUrl, settings.REDIS_PREFIX!));
  /** ROLE=`role` on ports of its own; PUBLIC_BASE_URL is the API's, its own when it serves the API. */
  const start = async (role: Role, api?: Service): Promise<Service> => {
    const [port, smtpPort] = await twoFreePorts();
    const service: Service = { role, container: `cis-image-${id}-${role}`, base: `http://127.0.0.1:${port}`, port, smtpPort };
    const run = withSettings({ ...settings, ROLE: role, PORT: String(port), SMTP_PORT: String(smtpPort), PUBLIC_BASE_URL: (api ?? service).base });
    await steps.run(`${role}: start`, async () => {
      cleanups.push(() => docker(cli, ['rm', '--force', service.container]).catch(() => undefined));
      started.push(service);
      await docker(cli, ['run', '--detach', '--name', service.container, '--network', 'host', ...run.args, image], run.env);
      await eventually(`the ${role} container to answer /healthz`, async () => {
        const state = await docker(cli, ['inspect', '--format', '{{.State.Status}} (exit status {{.State.ExitCode}})', service.container]);
        assert.match(state, /^running /, `the ${role} container is ${state}`);
        return (await fetch(`${service.base}/healthz`).then((res) => res.ok, () => false)) ? true : undefined;
      }, { timeoutMs: START_TIMEOUT_MS });
      return `port ${port}${role === 'worker' ? '' : `, SMTP ${smtpPort}`}`;
    });
    return service;
  };

  const probes = (service: Service) => steps.run(`${service.role}: probes`, async () => {
    const ready = await httpRequest(service.base, 'GET', '/readyz');
    assert.equal(ready.status, 200, `/readyz answered ${ready.status} ${ready.text}`);
    assert.deepEqual(ready.body, { status: 'ready', postgres: 'ok', redis: 'ok' });
    await eventually(`Docker to find the ${service.role} container healthy (its HEALTHCHECK)`, async () => {
      const health = await docker(cli, ['inspect', '--format', '{{.State.Health.Status}}', service.container]);
      assert.notEqual(health, 'unhealthy');
      return health === 'healthy' ? true : undefined;
    }, { timeoutMs: HEALTHY_TIMEOUT_MS });
    return '/readyz ready, HEALTHCHECK healthy';
  });

  const stop = (...services: Service[]) => steps.run(`${services.map((s) => s.role).join(' and ')}: graceful stop`, async () => {
    await Promise.all(services.map(async (service) => {
      await docker(cli, ['stop', '--time', String(STOP_TIMEOUT_S), service.container]);
      const code = await docker(cli, ['inspect', '--format', '{{.State.ExitCode}}', service.container]);
      assert.equal(code, '0', `SIGTERM ends the ${service.role} container with exit status 0`);
    }));
    return 'SIGTERM, exit 0';
  });

  try {
    const all = await start('all');
    await probes(all);
    await steps.run('all: user and Node.js', async () => {
      const uid = await docker(cli, ['exec', all.container, 'id', '-u']);
      assert.notEqual(uid, '0', 'the service runs as root');
      const version = await docker(cli, ['exec', all.container, 'node', '--version']);
      assert.equal(version, `v${target.nodeVersion}`, 'the image runs the Node.js release of .node-version');
      return `uid ${uid}, Node.js ${version}`;
    });
    await steps.run('all: walk-through', async () => {
      const intake = await prepareIntake(all.base, operatorToken, 'Image check (all)');
      return closedByRuns(intake, await takeCases(all, intake));
    });
    await stop(all);

    const api = await start('api');
    await probes(api);
    let intake: Intake | undefined;
    let taken: Taken | undefined;
    await steps.run('api: takes cases, runs none', async () => {
      intake = await prepareIntake(api.base, operatorToken, 'Image check (api and worker)');
      taken = await takeCases(api, intake);
      // Only workers relay runs to the queue: alone, the API leaves them as it wrote them.
      assert.deepEqual(await runStates(settings.DATABASE_URL!, [taken.webhookCase, taken.mailCase]), ['pending, not enqueued', 'pending, not enqueued'], 'ROLE=api runs no automation');
      return `webhook case ${taken.webhookCase} and mail case ${taken.mailCase} taken, their runs pending`;
    });
    const worker = await start('worker', api);
    await probes(worker);
    await steps.run('worker: runs the automation', async () => {
      await assert.rejects(SmtpConversation.open(worker.smtpPort), { code: 'ECONNREFUSED' }, 'a worker listens for no mail');
      return closedByRuns(intake!, taken!);
    });
    await stop(api, worker);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const outputs = await Promise.all(started.map((service) => containerOutput(cli, service, target.logDir)));
    throw new Error(`${message}\n${outputs.join('\n')}`, { cause: err });
  }
}

/** Two distinct ports free now, for one container's HTTP and SMTP listeners. */
async function twoFreePorts(): Promise<[number, number]> {
  for (;;) {
    const ports = [await freePort(), await freePort()] as const;
    if (ports[0] !== ports[1]) return [...ports];
  }
}

/** The container's stdout and stderr as it wrote them, whole in a log file, its last lines quoted. */
async function containerOutput(cli: string, service: Service, logDir: string): Promise<string> {
  const log = join(logDir, `container-${service.role}.log`);
  try {
    await logged(cli, ['logs', service.container], { env: DOCKER_ENV }, log);
    return `the ${service.role} container's last lines (all of them in ${log}):\n${lastLines(log) || '(no output)'}`;
  } catch (err) {
    return `the ${service.role} container's output: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * The walk-through of docs/tour.md, up to the cases: the operator creates an organization (and gets its
 * admin token), the admin an API token and two published workflows whose Open run stamps and
 * closes each case: one taking cases on its webhook URL, one by email on its address.
 */
interface Intake {
  api: TestApp;
  org: Organization;
  apiToken: string;
  webhook: { workflowId: number; url: string };
  email: { workflowId: number; address: string };
}

/** The cases one API took: the webhook's (with the body sent) and the mail's. */
interface Taken {
  webhookCase: number;
  sent: Record<string, unknown>;
  mailCase: number;
}

const STAMP_AND_CLOSE = { Open: [{ set_attributes: { seen: '{{ case.id }}' } }, { close: { outcome: 'Done' } }] };

async function prepareIntake(base: string, operatorToken: string, name: string): Promise<Intake> {
  // The scenario helpers only call request(), and read the operator token from the environment.
  process.env.OPERATOR_TOKEN = operatorToken;
  const api = { request: (method: string, url: string, options?: Parameters<TestApp['request']>[2]) => httpRequest(base, method, url, options) } as Pick<TestApp, 'request'> as TestApp;
  const org = await createOrganization(api, name);
  const { secret: apiToken } = await createToken(api, org, 'api');
  const webhookWorkflow = await createWorkflow(api, org, { name: 'Webhook', case_source: 'direct', sensitive_data: false, automations: STAMP_AND_CLOSE });
  const webhook = await generateWebhook(api, org, webhookWorkflow);
  assert.ok(webhook.url.startsWith(`${base}/`), `the webhook URL is on PUBLIC_BASE_URL: ${webhook.url}`);
  const emailWorkflow = await createWorkflow(api, org, { name: 'Inbox', case_source: 'email', sensitive_data: false, attributes: {}, automations: STAMP_AND_CLOSE });
  const address = await api.request('POST', `/api/admin/v1/workflows/${emailWorkflow}/email_address`, { token: org.adminToken });
  assert.equal(address.status, 201, address.text);
  return { api, org, apiToken, webhook: { workflowId: webhookWorkflow, url: webhook.url }, email: { workflowId: emailWorkflow, address: address.body.email_address.address } };
}

/** A sender posts a case to the webhook URL, another mails one to the SMTP listener. */
async function takeCases(service: Service, intake: Intake): Promise<Taken> {
  const sent = { customer_email: 'grace@example.com', order: { id: 1042 }, note: 'Zoë — 数据' };
  const posted = await fetch(intake.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
  const postedText = await posted.text();
  assert.equal(posted.status, 201, postedText);
  const webhookCase = (JSON.parse(postedText) as { case: { id: number } }).case.id;

  const message = 'From: Grace <grace@example.com>\r\nSubject: Broken box\r\nMIME-Version: 1.0\r\n\r\nThe box came broken.\r\n';
  const mailed = await deliver({ port: service.smtpPort, from: 'grace@example.com', to: [intake.email.address], message });
  assert.equal(mailed.data?.code, 250, `the ${service.role} container's SMTP listener: ${JSON.stringify(mailed)}`);
  const listed = await intake.api.request('GET', `/api/admin/v1/cases?workflow_id=${intake.email.workflowId}`, { token: intake.org.adminToken });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.body.cases.length, 1, listed.text);
  return { webhookCase, sent, mailCase: listed.body.cases[0].id };
}

/** The state of each case's runs, in the order they were created. */
async function runStates(databaseUrl: string, caseIds: number[]): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ state: string; enqueued: boolean }>(
      'SELECT state, enqueued_at IS NOT NULL AS enqueued FROM workflow_runs WHERE case_id = ANY($1::bigint[]) ORDER BY id',
      [caseIds],
    );
    return rows.map((row) => `${row.state}, ${row.enqueued ? 'enqueued' : 'not enqueued'}`);
  } finally {
    await db.end();
  }
}

/** Both cases read back through the cases API as their Open runs left them: stamped and closed. */
async function closedByRuns(intake: Intake, taken: Taken): Promise<string> {
  const closed = (workflowId: number, caseId: number) => eventually(`case ${caseId} to be closed by its Open run`, async () => {
    const res = await intake.api.request('GET', `/api/external/v1/workflows/${workflowId}/cases/${caseId}`, { token: intake.apiToken });
    assert.equal(res.status, 200, res.text);
    return res.body.case.status === 'Closed' ? res.body.case : undefined;
  });
  const webhookCase = await closed(intake.webhook.workflowId, taken.webhookCase);
  assert.equal(webhookCase.outcome, 'Done');
  assert.deepEqual(webhookCase.attributes, { ...taken.sent, seen: webhookCase.attributes.seen });
  const mailCase = await closed(intake.email.workflowId, taken.mailCase);
  assert.equal(mailCase.outcome, 'Done');
  for (const [caseId, read] of [[taken.webhookCase, webhookCase], [taken.mailCase, mailCase]] as const) {
    assert.equal(String(read.attributes.seen), String(caseId), `the run stamped case ${caseId}`);
  }
  return `webhook case ${taken.webhookCase} and mail case ${taken.mailCase} closed by their runs`;
}
