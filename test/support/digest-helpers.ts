import assert from 'node:assert/strict';
import { DigestPass } from '../../src/modules/reporting/application/digest-pass.service.js';
import { type Automated, createCase, givenAutomation, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix, patchStatus } from './automation-helpers.js';
import { postForm } from './form-helpers.js';
import { HOUR_MS, holdFold, travel } from './report-helpers.js';
import { type SmtpSink, type SunkMail, startSmtpSink } from './smtp-sink.js';
import { startTestApp, type TestApp } from './test-app.js';

export const DIGESTS = '/api/admin/v1/digests';
export const INVITATION_SUBJECT = 'Confirm case report digests';
const PUBLIC_BASE_URL = 'https://cases.example';

/**
 * The digest tests' world: a real SMTP sink standing in for the relay, a database of its own,
 * worker processes (in this process) sending through the sink, and an organization with three
 * live cases (one closed) and a test case, two hours before the last whole hour.
 */
export interface DigestWorld {
  sink: SmtpSink;
  database: IsolatedDatabase;
  /** Workers started and not closed yet; `apps[0]` serves the API calls. */
  apps: TestApp[];
  w: Automated;
  /** The end of the last daily period for a digest at the current UTC hour. */
  periodEnd: Date;
  startWorker(checkEveryMs?: number): Promise<TestApp>;
  create(body: unknown, app?: TestApp): Promise<{ id: number; [key: string]: unknown }>;
  list(): Promise<Record<string, any>[]>;
  /** Moves a digest's creation back, so that the periods since are due. */
  backdate(digestId: number, createdAt: Date): Promise<void>;
  /** A pass as if run half an hour after the last period ended (or `later` ms after that): the same periods are due whenever the test crosses an hour. */
  pass(app?: TestApp, later?: number): Promise<number>;
  /** Digests (not confirmation mails) the sink took for the address. */
  digestsTo(address: string): SunkMail[];
  invitationsTo(address: string): SunkMail[];
  /** Confirms the address as its owner does: the link of its confirmation mail opened, then its button pressed. */
  confirm(address: string): Promise<void>;
  close(): Promise<void>;
}

/** The path of the link to `${PUBLIC_BASE_URL}/<path>/<token>` in the mail's text part. */
export function linkIn(mail: SunkMail, path: 'digests/confirm' | 'digests/unsubscribe'): string {
  const match = new RegExp(`${PUBLIC_BASE_URL.replaceAll('.', '\\.')}(/${path}/[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`).exec(mail.parsed.text ?? '');
  assert.ok(match, `no ${path} link in: ${mail.parsed.text}`);
  return match[1]!;
}

export async function startDigestWorld(): Promise<DigestWorld> {
  const sink = await startSmtpSink();
  const database = await isolatedDatabase();
  const redisPrefix = isolatedRedisPrefix();
  const apps: TestApp[] = [];
  const startWorker = async (checkEveryMs = 3_600_000) => {
    const env = { DATABASE_URL: database.url, REDIS_PREFIX: redisPrefix, SMTP_RELAY_URL: sink.url, DIGEST_CHECK_INTERVAL_MS: String(checkEveryMs), PUBLIC_BASE_URL };
    const app = await startTestApp({ env });
    apps.push(app);
    return app;
  };
  const t = await startWorker();
  const w = await givenAutomation(t, {});
  const periodEnd = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
  // Three live cases (one closed) and a test case, two hours ago: inside the period that ended at the top of this hour.
  const release = await holdFold(database.pool);
  const cases = [await createCase(w), await createCase(w), await createCase(w), await createCase(w, { mode: 'test' })];
  assert.equal((await patchStatus(w, cases[0]!, 'Closed')).status, 200);
  assert.equal((await patchStatus(w, cases[3]!, 'Closed')).status, 200);
  await travel(database.pool, w.org.id, 2 * HOUR_MS);
  await release();

  const mailsTo = (address: string) => sink.mails.filter((m) => m.to.includes(address));
  const invitationsTo = (address: string) => mailsTo(address).filter((m) => m.parsed.subject === INVITATION_SUBJECT);
  const world: DigestWorld = {
    sink,
    database,
    apps,
    w,
    periodEnd,
    startWorker,
    create: async (body, app = apps[0]!) => {
      const res = await app.request('POST', DIGESTS, { token: w.org.adminToken, body });
      assert.equal(res.status, 201, res.text);
      return res.body.digest;
    },
    list: async () => {
      const res = await apps[0]!.request('GET', DIGESTS, { token: w.org.adminToken });
      assert.equal(res.status, 200, res.text);
      return res.body.digests;
    },
    backdate: async (digestId, createdAt) => {
      await database.pool.query('UPDATE digests SET created_at = $2 WHERE id = $1', [digestId, createdAt]);
    },
    pass: (app = apps[0]!, later = 0) => app.app.get(DigestPass).run(new Date(periodEnd.getTime() + HOUR_MS / 2 + later)),
    digestsTo: (address) => mailsTo(address).filter((m) => m.parsed.subject !== INVITATION_SUBJECT),
    invitationsTo,
    confirm: async (address) => {
      const [invitation] = invitationsTo(address);
      assert.ok(invitation, `no confirmation mail to ${address}`);
      const path = linkIn(invitation, 'digests/confirm');
      const page = await apps[0]!.request('GET', path);
      assert.equal(page.status, 200, page.text);
      assert.match(page.text, /<form method="post"><button type="submit">Confirm<\/button><\/form>/);
      const confirmed = await postForm(apps[0]!, path, '');
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.match(confirmed.text, /<h1>Confirmed<\/h1>/);
    },
    close: async () => {
      for (const app of apps.splice(0)) await app.close();
      await database.drop();
      await sink.close();
    },
  };
  return world;
}
