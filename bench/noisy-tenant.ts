/**
 * Tenant A of the noisy-neighbour part: another organization, holding only what a tenant holds
 * (its tokens, its inbound mail address, its form URL), sending from a loopback address of its
 * own what costs the service most per byte it sends:
 *  - list filters: `attributes` containment of a long array on a workflow whose every case stores
 *    a long array, through the cases API with A's API token (Postgres compares the two arrays on
 *    every row of the workflow);
 *  - a mail flood: connections that send message after message to A's inbound address, each after
 *    refused recipients, with long attachment names; and connections that send DATA a byte at a
 *    time;
 *  - form posts that declare a body and send it slowly; one answered 413 is followed by posts that
 *    declare the most a form takes.
 * Each attacker keeps a fixed number of connections at a fixed pace, counts what the service
 * answered (a 422, 429 or 503 is an outcome of A's, not a failure of the run), and stops when told.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { MAX_ATTRIBUTE_FILTER_CHARS, MAX_ATTRIBUTE_FILTER_ITEMS } from '../src/modules/cases/http/list-cases.request.js';
import { MAX_FORM_BODY_BYTES } from '../src/shared/http/form-body-parser.js';
import { SmtpConversation } from '../test/support/smtp-client.js';
import type { BenchContext } from './context.js';
import { sleep } from './procs.js';
import { intakeDefinition, publishedWorkflow, publishWorkflow, call, createOrganization } from './setup.js';

/** Every connection of A's comes from here; B's load generator connects from 127.0.0.1. */
export const ATTACKER_ADDRESS = '127.0.0.2';

export const NOISE = {
  listClients: 8,
  /** A list client sends at most one request per this many ms (a refused one costs little, so without a pace 8 clients become a request flood). */
  listPaceMs: 250,
  mailFlooders: 4,
  /** A flooding connection sends at most one message per this many ms. */
  mailPaceMs: 100,
  /** Refused recipients before the real one, in every transaction of the flood. */
  refusedRecipients: 5,
  attachments: 20,
  attachmentNameChars: 1_000,
  mailTricklers: 4,
  formTricklers: 8,
  /** A trickling connection sends one byte of DATA, or 64 bytes of a form's body, per this many ms. */
  trickleEveryMs: 200,
  formChunkBytes: 64,
  /** The first form posts declare this; after a 413, the most a form takes. */
  formDeclaredBytes: 1_000_000,
  /** Before a connection that was refused or closed opens again. */
  reconnectPauseMs: 250,
  /** Elements of the array every case of the listed workflow stores. */
  storedTags: 500,
} as const;

/** What the service answered each attacker, by outcome ("200", "DATA 250", "closed by the service", ...). */
export type Outcomes = Record<string, number>;

export interface NoiseOutcome {
  list: Outcomes;
  mail: Outcomes;
  mailTrickles: Outcomes;
  formTrickles: Outcomes;
  /** The longest a trickling connection was held (from its DATA or its request head to an answer, a close, or the end of the noise), seconds. */
  longestTrickleSec: { mail: number; form: number };
  /** A's list queries Postgres was still running after the noise stopped (the bench cancels them). */
  queriesLeftRunning: number;
}

export interface NoisyTenant {
  apiToken: string;
  listPath: string;
  /** The list filter: every stored element but the last one found, on every row. */
  filter: string;
  mailAddress: string;
  smtpPort: number;
  formPath: string;
  servicePort: number;
}

/**
 * `{"tags":["t499","t499",...,"absent"]}` with as many array items as the cases API takes:
 * Postgres looks each item up in the stored array by walking it, finds all but the last at its
 * far end and the last nowhere, and so compares about items times stored length elements on every
 * row before the row fails. Longer strings or nested items would cost no more against an array
 * of short strings (a string is compared by its length first), so the length limit is not the
 * binding one.
 */
function costliestFilter(): string {
  const found = Array.from({ length: MAX_ATTRIBUTE_FILTER_ITEMS - 1 }, () => `t${NOISE.storedTags - 1}`);
  const filter = JSON.stringify({ tags: [...found, 'absent'] });
  if (filter.length > MAX_ATTRIBUTE_FILTER_CHARS) throw new Error(`the noisy filter is ${filter.length} characters, more than the cases API takes`);
  return filter;
}

/** Tenant A: its organization, a workflow of `cases` cases storing long arrays, an inbound address and a form. */
export async function setUpNoisyTenant(ctx: BenchContext, cases: number): Promise<NoisyTenant> {
  const base = ctx.targets.service.url;
  const { organizationId, adminToken, apiToken } = await createOrganization(base, ctx.serviceEnv.OPERATOR_TOKEN!, 'Noisy tenant');
  const listed = await publishedWorkflow(base, adminToken, intakeDefinition('Noisy tenant cases'));
  await ctx.db.query(
    `INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes, created_at, updated_at)
     SELECT $1, w.id, w.version, 'Tagged case ' || g, 'Open', 'live', 'API', jsonb_build_object('customer_email', 'tagged.' || g || '@noisy.example', 'tags', t.tags),
            now() - ($3::int - g) * interval '1 second', now() - ($3::int - g) * interval '1 second'
     FROM generate_series(1, $3::int) AS g, workflows w, (SELECT jsonb_agg('t' || i ORDER BY i) AS tags FROM generate_series(0, $4::int - 1) AS i) t
     WHERE w.id = $2`,
    [organizationId, listed.id, cases, NOISE.storedTags],
  );
  await ctx.db.query('VACUUM ANALYZE cases');
  const inbox = await publishWorkflow(base, adminToken, { name: 'Noisy inbox', case_source: 'email', sensitive_data: false, attributes: {}, automations: {} });
  const mailAddress: string = (await call(base, 'POST', `/api/admin/v1/workflows/${inbox}/email_address`, adminToken)).email_address.address;
  const form = await publishWorkflow(base, adminToken, { name: 'Noisy form', case_source: 'ticketing', sensitive_data: false, attributes: { details: { type: 'string' } }, automations: {} });
  const formUrl = new URL((await call(base, 'POST', `/api/admin/v1/workflows/${form}/form`, adminToken)).form.url);
  return {
    apiToken,
    listPath: listed.casesPath,
    filter: costliestFilter(),
    mailAddress,
    smtpPort: Number(ctx.serviceEnv.SMTP_PORT),
    formPath: formUrl.pathname,
    servicePort: Number(new URL(base).port),
  };
}

/** The attackers' shared state: the stop signal, the connections to cut when it comes, and the counts. */
class Attack {
  private readonly stopping = new AbortController();
  readonly signal = this.stopping.signal;
  private readonly open = new Set<{ close(): void }>();
  readonly outcome: NoiseOutcome = { list: {}, mail: {}, mailTrickles: {}, formTrickles: {}, longestTrickleSec: { mail: 0, form: 0 }, queriesLeftRunning: 0 };

  get stopped(): boolean {
    return this.signal.aborted;
  }

  count(outcomes: Outcomes, outcome: string): void {
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }

  /** Runs `use` with a connection that the stop cuts (at once, when it came while the connection was being opened). */
  async holding<C extends { close(): void }, T>(connection: C, use: (connection: C) => Promise<T>): Promise<T> {
    this.open.add(connection);
    if (this.stopped) connection.close();
    try {
      return await use(connection);
    } finally {
      this.open.delete(connection);
      connection.close();
    }
  }

  /** Waits `ms`, or less when the stop comes first. */
  pause(ms: number): Promise<void> {
    return delay(ms, undefined, { signal: this.signal }).catch(() => undefined);
  }

  stop(): void {
    this.stopping.abort();
    for (const connection of this.open) connection.close();
  }
}

/** Why a connection ended, for A's counts. */
function ended(attack: Attack, err: unknown): string {
  if (attack.stopped) return 'cut at the end';
  const message = err instanceof Error ? err.message : String(err);
  return /closed|ECONNRESET|EPIPE/.test(message) ? 'closed by the service' : `error: ${message.slice(0, 60)}`;
}

async function listClient(attack: Attack, tenant: NoisyTenant): Promise<void> {
  const path = `${tenant.listPath}?limit=50&attributes=${encodeURIComponent(tenant.filter)}`;
  while (!attack.stopped) {
    const next = attack.pause(NOISE.listPaceMs);
    const req = request({ host: '127.0.0.1', port: tenant.servicePort, localAddress: ATTACKER_ADDRESS, path, headers: { authorization: `Bearer ${tenant.apiToken}` } });
    const outcome = await attack.holding({ close: () => req.destroy() }, () =>
      new Promise<string>((resolve) => {
        req.once('response', (res) => {
          res.resume();
          res.once('end', () => resolve(String(res.statusCode)));
          res.once('error', (err) => resolve(ended(attack, err)));
        });
        req.once('error', (err) => resolve(ended(attack, err)));
        req.end();
      }),
    );
    attack.count(attack.outcome.list, outcome);
    await next;
  }
}

/** A message with a text part and many attachments with long names (`attributes.email` keeps every name). */
function floodMessage(to: string, n: number): string {
  const boundary = `noisy-${n}`;
  const name = 'n'.repeat(NOISE.attachmentNameChars);
  const attachment = (i: number) => [`--${boundary}`, 'Content-Type: text/plain', `Content-Disposition: attachment; filename="${i}-${name}.txt"`, '', `attachment ${i}`];
  return [
    'From: <flood@noisy.example>',
    `To: <${to}>`,
    `Subject: flood ${n}`,
    `Message-ID: <flood-${n}-${randomBytes(6).toString('hex')}@noisy.example>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    ...Array.from({ length: 200 }, (_, i) => `Line ${i} of a message nobody asked for, sent again and again.`),
    ...Array.from({ length: NOISE.attachments }, (_, i) => attachment(i)).flat(),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/**
 * An SMTP connection from A's address, greeted and past EHLO, for `use`; counts a refused greeting
 * (`use` does not run) and how the connection ended when it failed.
 */
async function smtpSession(attack: Attack, tenant: NoisyTenant, outcomes: Outcomes, use: (conversation: SmtpConversation) => Promise<void>): Promise<void> {
  try {
    await attack.holding(await SmtpConversation.open(tenant.smtpPort, ATTACKER_ADDRESS), async (conversation) => {
      const greeting = await conversation.expect();
      if (greeting.code !== 220) return attack.count(outcomes, `greeting ${greeting.code}`);
      await conversation.command('EHLO noisy.example', 250);
      await use(conversation);
    });
  } catch (err) {
    attack.count(outcomes, ended(attack, err));
  }
}

/** MAIL FROM, the refused recipients (`refused` of them), then A's address; true when DATA may follow. */
async function envelope(attack: Attack, conversation: SmtpConversation, tenant: NoisyTenant, refused: number, outcomes: Outcomes): Promise<boolean> {
  const from = await conversation.command('MAIL FROM:<flood@noisy.example>');
  if (from.code !== 250) {
    attack.count(outcomes, `MAIL FROM ${from.code}`);
    return false;
  }
  const domain = tenant.mailAddress.slice(tenant.mailAddress.indexOf('@') + 1);
  for (let i = 0; i < refused; i++) attack.count(outcomes, `RCPT unknown ${(await conversation.command(`RCPT TO:<${randomBytes(12).toString('hex')}@${domain}>`)).code}`);
  const rcpt = await conversation.command(`RCPT TO:<${tenant.mailAddress}>`);
  if (rcpt.code === 250) return true;
  attack.count(outcomes, `RCPT ${rcpt.code}`);
  await conversation.command('RSET');
  return false;
}

async function mailFlooder(attack: Attack, tenant: NoisyTenant): Promise<void> {
  const outcomes = attack.outcome.mail;
  let n = 0;
  while (!attack.stopped) {
    await smtpSession(attack, tenant, outcomes, async (conversation) => {
      while (!attack.stopped) {
        const next = attack.pause(NOISE.mailPaceMs);
        if (await envelope(attack, conversation, tenant, NOISE.refusedRecipients, outcomes)) {
          await conversation.command('DATA', 354);
          attack.count(outcomes, `DATA ${(await conversation.send(Buffer.from(`${floodMessage(tenant.mailAddress, n++)}\r\n.\r\n`))).code}`);
        }
        await next;
      }
    });
    await attack.pause(NOISE.reconnectPauseMs);
  }
}

/** Until the service answers, closes the connection, or the noise stops: sends one more piece every trickleEveryMs; how it ended. */
async function trickle(attack: Attack, answer: Promise<string>, write: (i: number) => void, kind: 'mail' | 'form'): Promise<string> {
  const started = Date.now();
  let i = 0;
  const timer = setInterval(() => write(i++), NOISE.trickleEveryMs);
  try {
    return await answer;
  } finally {
    clearInterval(timer);
    attack.outcome.longestTrickleSec[kind] = Math.max(attack.outcome.longestTrickleSec[kind], (Date.now() - started) / 1000);
  }
}

async function mailTrickler(attack: Attack, tenant: NoisyTenant): Promise<void> {
  const outcomes = attack.outcome.mailTrickles;
  while (!attack.stopped) {
    await smtpSession(attack, tenant, outcomes, async (conversation) => {
      if (!(await envelope(attack, conversation, tenant, 0, outcomes))) return;
      await conversation.command('DATA', 354);
      conversation.write('Subject: slow\r\nX-Padding: ');
      const answer = conversation.expect().then(
        (reply) => `answered ${reply.code}`,
        (err: unknown) => ended(attack, err),
      );
      attack.count(outcomes, await trickle(attack, answer, () => conversation.write('a'), 'mail'));
    });
    await attack.pause(NOISE.reconnectPauseMs);
  }
}

/** A raw HTTP connection, so the body can be declared and then sent as slowly as A likes. */
function httpConnection(port: number): Promise<Socket & { close(): void }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: ATTACKER_ADDRESS }, () => resolve(Object.assign(socket, { close: () => socket.destroy() })));
    socket.once('error', reject);
  });
}

async function formTrickler(attack: Attack, tenant: NoisyTenant): Promise<void> {
  const outcomes = attack.outcome.formTrickles;
  let declared: number = NOISE.formDeclaredBytes;
  while (!attack.stopped) {
    try {
      const socket = await httpConnection(tenant.servicePort);
      const status = await attack.holding(socket, async () => {
        const answer = new Promise<string>((resolve) => {
          socket.once('data', (chunk: Buffer) => resolve(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'unreadable answer'));
          socket.once('close', () => resolve(ended(attack, new Error('closed'))));
          socket.on('error', () => undefined);
        });
        socket.write(`POST ${tenant.formPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${declared}\r\n\r\nsubject=`);
        return trickle(attack, answer, () => socket.write('a'.repeat(NOISE.formChunkBytes)), 'form');
      });
      attack.count(outcomes, status);
      if (status === '413') declared = MAX_FORM_BODY_BYTES;
    } catch (err) {
      attack.count(outcomes, ended(attack, err));
    }
    await attack.pause(NOISE.reconnectPauseMs);
  }
}

/**
 * Starts all of A's attackers; `stop` cuts every connection, waits for the attackers to finish,
 * cancels the list queries Postgres is still running for them, and returns what A got.
 */
export function startNoise(ctx: BenchContext, tenant: NoisyTenant): { stop(): Promise<NoiseOutcome> } {
  const attack = new Attack();
  const attackers = [
    ...Array.from({ length: NOISE.listClients }, () => listClient(attack, tenant)),
    ...Array.from({ length: NOISE.mailFlooders }, () => mailFlooder(attack, tenant)),
    ...Array.from({ length: NOISE.mailTricklers }, () => mailTrickler(attack, tenant)),
    ...Array.from({ length: NOISE.formTricklers }, () => formTrickler(attack, tenant)),
  ];
  return {
    async stop() {
      attack.stop();
      await Promise.all(attackers);
      // Give the service a moment to see its clients gone before counting what Postgres still runs for them.
      await sleep(500);
      const { rows } = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT pg_cancel_backend(pid) FROM pg_stat_activity
         WHERE datname = $1 AND application_name = $2 AND state = 'active' AND query LIKE '%attributes @>%') cancelled`,
        [ctx.dbName, ctx.targets.service.applicationName],
      );
      attack.outcome.queriesLeftRunning = rows[0]!.n;
      return attack.outcome;
    },
  };
}
