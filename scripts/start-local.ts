/**
 * `npm run start:local`: the whole service on one machine with nothing set. Starts an embedded
 * Postgres and a local redis-server with their data under .data/, applies migrations, starts
 * the service and its SMTP listener, creates (once) a demo organization, workflows, API token,
 * webhook URL and inbound email address through the public APIs, and prints curl lines to try
 * them (one sends a test message over SMTP). Without SMTP_RELAY_URL it also starts a local mail
 * sink (SMTP on 1025, a page on http://localhost:1080, or free ports when those are taken) that
 * digests are sent to. It listens on 127.0.0.1 unless HOST says otherwise: the demo's secrets are
 * printed, and the operator token is the one from .data/. Each start prints a new sign-in link
 * for the demo owner. Ctrl-C (or `npm run stop:local`) stops everything it started, the service
 * before the servers it uses.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../src/app.js';
import { listenForMail } from '../src/modules/email/infrastructure/smtp-listener.js';
import { SIGN_IN_VALIDITY_MS, SignInLinksService } from '../src/modules/people/application/sign-in-links.service.js';
import { validateEnv } from '../src/shared/config/env.js';
import { runMigrations } from '../src/shared/database/migrate.js';
import { createLogger } from '../src/shared/logging/logger.js';
import { type LocalServers, useOrStartServers } from './local-infra.js';
import { type MailSink, startMailSink } from './local-mail-sink.js';

const DATA = resolve('.data');
const DATABASE = 'case_intake';
/** The demo organization's owner: their invitation lands in the local mail sink, and each start prints a sign-in link for them. */
const DEMO_OWNER = 'owner@example.com';

interface Demo {
  organizationId: number;
  /** Added later: a demo saved before people had roles has no owner, and is made again. */
  ownerEmail?: string;
  adminToken: string;
  apiToken: string;
  workflowId: number;
  webhookUrl: string;
  /** Added later: a demo saved before email intake gets its email workflow on the next start. */
  emailWorkflowId?: number;
  emailAddress?: string;
}

/** A secret generated on first start and kept in .data/ so restarts keep working. */
function persistentSecret(file: string, make: () => string): string {
  const path = join(DATA, file);
  if (!existsSync(path)) writeFileSync(path, make(), { mode: 0o600 });
  return readFileSync(path, 'utf8').trim();
}

async function ensureDatabase(serverUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

async function call(base: string, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(payload)}`);
  return payload;
}

/** Creates the demo through the same APIs a user would call; reused while its organization exists. */
async function ensureDemo(base: string, operatorToken: string): Promise<Demo> {
  const file = join(DATA, 'demo.json');
  if (existsSync(file)) {
    const demo = JSON.parse(readFileSync(file, 'utf8')) as Demo;
    const { organizations } = await call(base, 'GET', '/api/operator/v1/organizations', operatorToken);
    if (demo.ownerEmail && organizations.some((o: { id: number }) => o.id === demo.organizationId)) return ensureEmailDemo(base, demo, file);
  }
  const { organization, admin_token: adminToken } = await call(base, 'POST', '/api/operator/v1/organizations', operatorToken, { name: 'Demo organization', owner_email: DEMO_OWNER });
  const { workflow } = await call(base, 'POST', '/api/admin/v1/workflows', adminToken, {
    name: 'Customer escalations',
    case_source: 'direct',
    statuses: ['Triage', 'Waiting on customer'],
    default_outcome: 'Resolved',
    attributes: {
      customer_email: { type: 'string', required: true, format: 'email' },
      priority: { type: 'integer', enum: [1, 2, 3] },
    },
    automations: {
      Open: [{ set_attributes: { received_via: 'demo workflow' } }, { set_status: 'Triage' }],
    },
  });
  await call(base, 'POST', `/api/admin/v1/workflows/${workflow.id}/publish`, adminToken);
  const { secret: apiToken } = await call(base, 'POST', '/api/admin/v1/tokens', adminToken, { name: 'Demo API token', scope: 'api' });
  const { webhook } = await call(base, 'POST', `/api/admin/v1/workflows/${workflow.id}/webhook`, adminToken);
  return ensureEmailDemo(base, { organizationId: organization.id, ownerEmail: DEMO_OWNER, adminToken, apiToken, workflowId: workflow.id, webhookUrl: webhook.url }, file);
}

/** A published email workflow with its inbound address, once per demo. */
async function ensureEmailDemo(base: string, demo: Demo, file: string): Promise<Demo> {
  if (demo.emailWorkflowId === undefined || demo.emailAddress === undefined) {
    const { workflow } = await call(base, 'POST', '/api/admin/v1/workflows', demo.adminToken, {
      name: 'Support inbox',
      case_source: 'email',
      statuses: ['Waiting on customer'],
      default_outcome: 'Resolved',
      automations: {},
    });
    await call(base, 'POST', `/api/admin/v1/workflows/${workflow.id}/publish`, demo.adminToken);
    const { email_address: emailAddress } = await call(base, 'POST', `/api/admin/v1/workflows/${workflow.id}/email_address`, demo.adminToken);
    demo = { ...demo, emailWorkflowId: workflow.id, emailAddress: emailAddress.address };
  }
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

/** A curl line that sends a short message to the demo's inbound address over SMTP. */
function sendMailCommand(demo: Demo, smtpPort: number | null): string {
  if (smtpPort === null) return '# (SMTP_PORT is 0: no SMTP listener, so email intake is off)';
  const message = `From: Ada <ada@example.com>\\r\\nTo: ${demo.emailAddress}\\r\\nSubject: Printer on floor 3 is on fire\\r\\n\\r\\nPlease send help.\\r\\n`;
  return `printf '${message}' | curl -s smtp://localhost:${smtpPort} --mail-from ada@example.com --mail-rcpt '${demo.emailAddress}' -T -`;
}

/** The date `days` days before today's, in UTC: a report `from` it cuts days at UTC midnight (without one, they start at the hour after now's). */
const utcDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

function printWelcome(base: string, host: string, demo: Demo, operatorToken: string, smtpPort: number | null, mailPage: string | undefined, ownerLink: string | undefined, servers: LocalServers): void {
  const cases = `${base}/api/external/v1/workflows/${demo.workflowId}/cases`;
  console.log(`
Case intake service is running at ${base}  (API docs: ${base}/docs), listening on ${host}${host === '127.0.0.1' ? ' only (HOST=0.0.0.0 to open it to other machines)' : ''}
Dashboard: ${base}/dashboard/  sign in with the demo admin token ${demo.adminToken}
Demo owner ${demo.ownerEmail}: ${ownerLink ? `sign in at ${ownerLink}  (a sign-in link: one use, valid ${SIGN_IN_VALIDITY_MS / 60_000} minutes; each start prints a new one)` : 'no such user in the demo organization any more'}
${mailPage ? `Local mail: ${mailPage}  (every mail the service sends lands here)\n` : ''}Data: ${DATA}${servers.postgresDataElsewhere ? ` and ${servers.postgresDataElsewhere} (Postgres, which cannot enter this clone)` : ''}  (npm run stop:local -- --purge deletes this data)

Demo organization ${demo.organizationId}, workflow ${demo.workflowId} ("Customer escalations", published, direct).
Secrets are kept in .data/ for this machine only.

# Create a case with the API token
curl -s -X POST '${cases}' \\
  -H 'Authorization: Bearer ${demo.apiToken}' -H 'Content-Type: application/json' \\
  -d '{"subject": "Order 1042 arrived damaged", "attributes": {"customer_email": "ada@example.com", "priority": 2}}'

# Fetch it (replace 1 with the id you got) and move it
curl -s '${cases}/1' -H 'Authorization: Bearer ${demo.apiToken}'
curl -s -X PATCH '${cases}/1' -H 'Authorization: Bearer ${demo.apiToken}' -H 'Content-Type: application/json' -d '{"status": "Closed"}'

# Post any JSON object to the workflow's webhook URL
curl -s -X POST '${demo.webhookUrl}' -H 'Content-Type: application/json' \\
  -d '{"customer_email": "grace@example.com", "order": {"id": 1042, "total": 99.5}}'

# Send an email to workflow ${demo.emailWorkflowId}'s inbound address ("Support inbox", published, email); it becomes a case
${sendMailCommand(demo, smtpPort)}
curl -s '${base}/api/admin/v1/cases?source=Email' -H 'Authorization: Bearer ${demo.adminToken}'

# The case report of the last 30 days, a day from each UTC midnight, and a daily digest (its mail lands in the local mail sink${mailPage ? `: open ${mailPage}` : ', SMTP_RELAY_URL'}).
# ops@example.com first gets a confirmation mail: open its link and press Confirm, then send the digest now
curl -s '${base}/api/admin/v1/reports/cases?interval=day&from=${utcDaysAgo(29)}' -H 'Authorization: Bearer ${demo.adminToken}'
curl -s -X POST '${base}/api/admin/v1/digests' -H 'Authorization: Bearer ${demo.adminToken}' -H 'Content-Type: application/json' \\
  -d '{"schedule": "daily", "hour_utc": 8, "recipients": ["ops@example.com"]}'
curl -s -X POST '${base}/api/admin/v1/digests/1/send' -H 'Authorization: Bearer ${demo.adminToken}'

# Admin API (admin token) and operator API (operator token)
curl -s '${base}/api/admin/v1/cases' -H 'Authorization: Bearer ${demo.adminToken}'
curl -s '${base}/api/operator/v1/organizations' -H 'Authorization: Bearer ${operatorToken}'

Press Ctrl-C to stop.`);
}

/** The pid of a running start:local, for `npm run stop:local` (scripts/stop-local.mjs). */
const PID_FILE = join(DATA, 'start-local.pid');

async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  // Its servers start only where no other run's do, so the pid file is then this run's.
  const servers = await useOrStartServers(DATA, true);
  writeFileSync(PID_FILE, `${process.pid}\n`);
  let mail: MailSink | undefined;
  let app: NestFastifyApplication | undefined;
  // The service first: it stops its workers while the servers they talk to still answer.
  const stopAll = async () => {
    await app?.close();
    await mail?.stop();
    await servers.stop();
    rmSync(PID_FILE, { force: true });
  };
  try {
    mail = process.env.SMTP_RELAY_URL ? undefined : await startMailSink(join(DATA, 'mail'), 1025, 1080, { elseFree: true });
    const redisUrl = servers.redisUrl;
    const databaseUrl = process.env.DATABASE_URL ?? (await ensureDatabase(servers.postgresUrl));
    await runMigrations(databaseUrl);
    const env = validateEnv({
      ...process.env,
      HOST: process.env.HOST ?? '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      TOKEN_ENCRYPTION_KEY: process.env.TOKEN_ENCRYPTION_KEY ?? persistentSecret('token-encryption.key', () => randomBytes(32).toString('hex')),
      OPERATOR_TOKEN: process.env.OPERATOR_TOKEN ?? persistentSecret('operator-token', () => `op_${randomBytes(24).toString('base64url')}`),
      OUTBOUND_ALLOW_PRIVATE: process.env.OUTBOUND_ALLOW_PRIVATE ?? 'true',
      SMTP_RELAY_URL: process.env.SMTP_RELAY_URL ?? mail?.smtpUrl,
      DIGEST_CHECK_INTERVAL_MS: process.env.DIGEST_CHECK_INTERVAL_MS ?? '5000',
    });
    app = await createApp(env, createLogger(env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL));
    await app.listen({ port: env.PORT, host: env.HOST });
    const smtpPort = await listenForMail(app, env);
    const base = env.PUBLIC_BASE_URL!;
    const demo = await ensureDemo(base, env.OPERATOR_TOKEN!);
    // Issued here, not asked for at POST /auth/email: restarts spend none of the limits a stranger meets there.
    const ownerLink = await app.get(SignInLinksService).issueFor(demo.organizationId, demo.ownerEmail!);
    printWelcome(base, env.HOST, demo, env.OPERATOR_TOKEN!, smtpPort, mail?.pageUrl, ownerLink, servers);

    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      console.log('\nstopping...');
      await stopAll();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (err) {
    await stopAll();
    throw err;
  }
}

main().catch((err: unknown) => {
  console.error(`start:local failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
