/**
 * The built image run the way the README deploys it, against this machine's Postgres and Redis
 * (`--network host`): the migration command on a database of its own, then the image's own
 * command with ROLE=all on a free port and a Redis prefix of its own, driven over HTTP as the
 * README's curl walk-through does. Everything it creates is registered with `cleanups` before it
 * exists, so a failure or an interrupt leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../scripts/local-infra.js';
import { eventually } from '../support/automation-helpers.js';
import { createOrganization, createToken, createWorkflow, generateWebhook } from '../support/scenario.js';
import { httpRequest } from '../support/service-process.js';
import { dropTestDatabase, flushRedisPrefix } from '../support/test-infra.js';
import type { TestApp } from '../support/test-app.js';
import { docker, DOCKER_ENV } from './docker.js';
import type { Steps } from './steps.js';

const START_TIMEOUT_MS = 60_000;
/** The Dockerfile's HEALTHCHECK probes every 10 s. */
const HEALTHY_TIMEOUT_MS = 40_000;
const STOP_TIMEOUT_S = 20;
const LOG_LINES = 40;

export interface Target {
  cli: string;
  image: string;
  /** The Node.js release the image must run (.node-version). */
  nodeVersion: string;
  /** Any database URL of the Postgres server; the run creates its own database there. */
  postgresUrl: string;
  redisUrl: string;
}

/** What to undo, each pushed before the thing exists; run last in, first out, after success, failure or interrupt. */
export type Cleanups = Array<() => Promise<unknown>>;

export async function runImage(target: Target, steps: Steps, cleanups: Cleanups): Promise<void> {
  const { cli, image } = target;
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const server = new URL(target.postgresUrl);
  server.pathname = '/postgres';
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/cis_image_${id}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const operatorToken = randomBytes(24).toString('hex');
  const container = `cis-image-${id}`;
  // Values go to `docker run -e NAME` through the CLI's environment, never on a command line.
  const settings: Record<string, string> = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: target.redisUrl,
    REDIS_PREFIX: `cis-image-${id}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    ROLE: 'all',
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    OPERATOR_TOKEN: operatorToken,
    // What a failure quotes of its output: warnings and errors, not every route mapped at start.
    LOG_LEVEL: 'warn',
  };
  const withSettings = (names: string[]) => ({
    args: names.flatMap((name) => ['-e', name]),
    env: { ...DOCKER_ENV, ...Object.fromEntries(names.map((name) => [name, settings[name]])) },
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
    const migrate = withSettings(['DATABASE_URL']);
    const out = await docker(cli, ['run', '--rm', '--network', 'host', ...migrate.args, image, 'node', 'dist/shared/database/migrate.js'], migrate.env);
    assert.match(out, /^applied: \w+/m, `the migration applied nothing: ${out}`);
    return out.split('\n').at(-1)!.split(',').length + ' migrations';
  });

  const logs = () => docker(cli, ['logs', '--tail', String(LOG_LINES), container]).catch((err: unknown) => String(err));
  const run = withSettings(Object.keys(settings));
  try {
    await steps.run('service start', async () => {
      cleanups.push(() => flushRedisPrefix(target.redisUrl, settings.REDIS_PREFIX!));
      cleanups.push(() => docker(cli, ['rm', '--force', container]).catch(() => undefined));
      await docker(cli, ['run', '--detach', '--name', container, '--network', 'host', ...run.args, image], run.env);
      await eventually('the container to answer /healthz', async () => {
        const state = await docker(cli, ['inspect', '--format', '{{.State.Status}}', container]);
        assert.equal(state, 'running', `the container is ${state}`);
        return (await fetch(`${base}/healthz`).then((res) => res.ok, () => false)) ? true : undefined;
      }, { timeoutMs: START_TIMEOUT_MS });
      return `ROLE=all on port ${port}`;
    });

    await steps.run('probes', async () => {
      const ready = await httpRequest(base, 'GET', '/readyz');
      assert.equal(ready.status, 200, `/readyz answered ${ready.status} ${ready.text}`);
      assert.deepEqual(ready.body, { status: 'ready', postgres: 'ok', redis: 'ok' });
      await eventually('Docker to find the container healthy (its HEALTHCHECK)', async () => {
        const health = await docker(cli, ['inspect', '--format', '{{.State.Health.Status}}', container]);
        assert.notEqual(health, 'unhealthy');
        return health === 'healthy' ? true : undefined;
      }, { timeoutMs: HEALTHY_TIMEOUT_MS });
      return '/readyz ready, HEALTHCHECK healthy';
    });

    await steps.run('user and Node.js', async () => {
      const uid = await docker(cli, ['exec', container, 'id', '-u']);
      assert.notEqual(uid, '0', 'the service runs as root');
      const version = await docker(cli, ['exec', container, 'node', '--version']);
      assert.equal(version, `v${target.nodeVersion}`, 'the image runs the Node.js release of .node-version');
      return `uid ${uid}, Node.js ${version}`;
    });

    await steps.run('API walk-through', () => walkThrough(base, operatorToken));

    await steps.run('graceful stop', async () => {
      await docker(cli, ['stop', '--time', String(STOP_TIMEOUT_S), container]);
      const code = await docker(cli, ['inspect', '--format', '{{.State.ExitCode}}', container]);
      assert.equal(code, '0', 'SIGTERM ends the service with exit status 0');
      return 'SIGTERM, exit 0';
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${message}\nthe container's last lines:\n${await logs()}`, { cause: err });
  }
}

/**
 * The README's walk-through: the operator creates an organization (and gets its admin token), the
 * admin an API token and a published workflow whose Open run stamps and closes each case, and
 * its webhook URL; a sender posts a case there, which the API then shows as the run left it.
 */
async function walkThrough(base: string, operatorToken: string): Promise<string> {
  // The scenario helpers only call request(), and read the operator token from the environment.
  process.env.OPERATOR_TOKEN = operatorToken;
  const api = { request: (method: string, url: string, options?: Parameters<TestApp['request']>[2]) => httpRequest(base, method, url, options) } as Pick<TestApp, 'request'> as TestApp;
  const org = await createOrganization(api, 'Image check');
  const { secret: apiToken } = await createToken(api, org, 'api');
  const workflowId = await createWorkflow(api, org, {
    name: 'Image check',
    case_source: 'direct',
    sensitive_data: false,
    automations: { Open: [{ set_attributes: { seen: '{{ case.id }}' } }, { close: { outcome: 'Done' } }] },
  });
  const webhook = await generateWebhook(api, org, workflowId);
  assert.ok(webhook.url.startsWith(`${base}/`), `the webhook URL is on PUBLIC_BASE_URL: ${webhook.url}`);

  const sent = { customer_email: 'grace@example.com', order: { id: 1042 }, note: 'Zoë — 数据' };
  const posted = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
  const postedText = await posted.text();
  assert.equal(posted.status, 201, postedText);
  const caseId = (JSON.parse(postedText) as { case: { id: number } }).case.id;

  const read = await eventually(`case ${caseId} to be closed by its Open run`, async () => {
    const res = await api.request('GET', `/api/external/v1/workflows/${workflowId}/cases/${caseId}`, { token: apiToken });
    assert.equal(res.status, 200, res.text);
    return res.body.case.status === 'Closed' ? res.body.case : undefined;
  });
  assert.equal(read.outcome, 'Done');
  assert.deepEqual(read.attributes, { ...sent, seen: read.attributes.seen });
  assert.equal(String(read.attributes.seen), String(caseId), 'the run stamped the case');
  return `organization ${org.id}, workflow ${workflowId}, webhook case ${caseId} closed by its run`;
}
