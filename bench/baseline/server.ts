/**
 * The baseline of `npm run bench`: the same intake work as the service, written the plain way
 * (Fastify + pg + Bull, no framework, no ORM, no cache, no validation beyond the minimum), on the
 * service's own schema. It is the reference the issue measures the service against:
 *
 * - POST /api/external/v1/workflows/:id/case_webhooks?token=  sha256(token) -> published workflow,
 *   BEGIN; INSERT case; INSERT case_events; COMMIT; queue.add; 201 {"case":{"id","source_type"}}
 * - POST /api/external/v1/workflows/:id/cases  Bearer api token -> token (+ workflow) look-up,
 *   the same transaction, queue.add, 201 with the case
 * - GET  /api/external/v1/workflows/:id/cases/:caseId  token look-up, select of the row, 200
 *
 * With BASELINE_SCHEMA=lean it runs the same program on a lean schema of its own (see LEAN_SCHEMA):
 * the reference that leaves out what the service's schema costs (its indexes, runs and outbox).
 *
 * Reads DATABASE_URL, REDIS_URL, REDIS_PREFIX (optional), BASELINE_SCHEMA (optional) and PORT.
 */
import Queue from 'bull';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import pg from 'pg';

const { DATABASE_URL, REDIS_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL) throw new Error('DATABASE_URL and REDIS_URL are required');
const PORT = Number(process.env.PORT ?? 3100);
const REDIS_PREFIX = process.env.REDIS_PREFIX ?? 'baseline';

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20, application_name: process.env.BASELINE_SCHEMA === 'lean' ? 'bench-lean' : 'bench-baseline' });
const queue = new Queue('baseline-runs', REDIS_URL, { prefix: `${REDIS_PREFIX}:baseline` });
const app = Fastify({ logger: false, bodyLimit: 1_048_576 });

interface JsonBody {
  text: string;
  value: unknown;
}

app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, { text: body as string, value: JSON.parse(body as string) } satisfies JsonBody);
  } catch {
    done(Object.assign(new Error('invalid JSON'), { statusCode: 400 }), undefined);
  }
});

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const subject = (name: string, source: string) => `${name} via ${source} - ${new Date().toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const CASE_FIELDS = 'id, workflow_id, subject, status, outcome, mode, attributes, created_at, updated_at';

/** The statements of one schema: the same queries, on the service's tables or on the lean ones. */
interface Statements {
  workflowByWebhookToken: string;
  tokenAndWorkflow: string;
  token: string;
  insertCase: string;
  insertEvent: string;
  selectCase: string;
}

const SERVICE_SCHEMA: Statements = {
  workflowByWebhookToken: `
    SELECT w.organization_id, w.version, v.definition->>'name' AS name
    FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id AND v.version = w.version
    WHERE w.id = $1 AND w.webhook_token_hash = $2 AND w.published`,
  tokenAndWorkflow: `
    SELECT t.id AS token_id, t.organization_id, w.version, v.definition->>'name' AS name
    FROM access_tokens t
    JOIN workflows w ON w.id = $2 AND w.organization_id = t.organization_id AND w.published
    JOIN workflow_versions v ON v.workflow_id = w.id AND v.version = w.version
    WHERE t.token_hash = $1 AND t.deleted_at IS NULL AND t.scope = 'api'`,
  token: `SELECT id, organization_id FROM access_tokens WHERE token_hash = $1 AND deleted_at IS NULL AND scope = 'api'`,
  insertCase: `
    INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
    VALUES ($1, $2, $3, $4, 'Open', $5, $6, $7::jsonb) RETURNING ${CASE_FIELDS}`,
  insertEvent: `INSERT INTO case_events (case_id, type, actor, data) VALUES ($1, 'created', $2, $3::jsonb)`,
  selectCase: `SELECT ${CASE_FIELDS} FROM cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`,
};

/**
 * The lean schema of issue 15's outside measurement: a cases table with only its primary key,
 * one token table (webhook and API tokens alike, each naming its workflow) and a timeline table.
 * Filled from the service's tables when the program starts, after the bench made its fixtures.
 */
const LEAN_SETUP = `
  CREATE TABLE IF NOT EXISTS lean_tokens (
    token_hash bytea PRIMARY KEY, kind text NOT NULL, organization_id bigint NOT NULL, token_id bigint,
    workflow_id bigint, workflow_version int, workflow_name text);
  CREATE TABLE IF NOT EXISTS lean_cases (
    id bigserial PRIMARY KEY, organization_id bigint NOT NULL, workflow_id bigint NOT NULL, workflow_version int NOT NULL,
    subject text NOT NULL, status text NOT NULL, outcome text, mode text NOT NULL, source text NOT NULL, attributes jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS lean_events (
    id bigserial PRIMARY KEY, case_id bigint NOT NULL, type text NOT NULL, actor text NOT NULL, data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now());
  TRUNCATE lean_tokens;
  INSERT INTO lean_tokens (token_hash, kind, organization_id, workflow_id, workflow_version, workflow_name)
    SELECT w.webhook_token_hash, 'webhook', w.organization_id, w.id, w.version, v.definition->>'name'
    FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id AND v.version = w.version
    WHERE w.webhook_token_hash IS NOT NULL AND w.published;
  INSERT INTO lean_tokens (token_hash, kind, organization_id, token_id)
    SELECT token_hash, 'api', organization_id, id FROM access_tokens WHERE deleted_at IS NULL AND scope = 'api'`;

const LEAN_SCHEMA: Statements = {
  workflowByWebhookToken: `
    SELECT organization_id, workflow_version AS version, workflow_name AS name
    FROM lean_tokens WHERE token_hash = $2 AND kind = 'webhook' AND workflow_id = $1`,
  // The API token names no workflow: the workflow comes from the path, as a lean program would trust it.
  tokenAndWorkflow: `
    SELECT token_id, organization_id, 1 AS version, 'Intake' AS name
    FROM lean_tokens WHERE token_hash = $1 AND kind = 'api' AND $2::bigint IS NOT NULL`,
  token: `SELECT token_id AS id, organization_id FROM lean_tokens WHERE token_hash = $1 AND kind = 'api'`,
  insertCase: `
    INSERT INTO lean_cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
    VALUES ($1, $2, $3, $4, 'Open', $5, $6, $7::jsonb) RETURNING ${CASE_FIELDS}`,
  insertEvent: `INSERT INTO lean_events (case_id, type, actor, data) VALUES ($1, 'created', $2, $3::jsonb)`,
  selectCase: `SELECT ${CASE_FIELDS} FROM lean_cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`,
};

const lean = process.env.BASELINE_SCHEMA === 'lean';
const sql = lean ? LEAN_SCHEMA : SERVICE_SCHEMA;
if (lean) await pool.query(LEAN_SETUP);

interface NewCase {
  organizationId: string;
  workflowId: string;
  version: number;
  subject: string;
  mode: 'live' | 'test';
  source: 'API' | 'Webhook';
  attributes: string;
  actor: string;
}

/** BEGIN; INSERT case; INSERT timeline event; COMMIT; then the queue job. */
async function createCase(c: NewCase): Promise<Record<string, unknown>> {
  const client = await pool.connect();
  let row: Record<string, unknown>;
  try {
    await client.query('BEGIN');
    const inserted = await client.query(sql.insertCase, [c.organizationId, c.workflowId, c.version, c.subject, c.mode, c.source, c.attributes]);
    row = inserted.rows[0];
    await client.query(sql.insertEvent, [row.id, c.actor, JSON.stringify({ source: c.source, mode: c.mode, status: 'Open' })]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  await queue.add({ caseId: row.id, status: 'Open' });
  return row;
}

function caseView(row: Record<string, unknown>) {
  return { ...row, id: Number(row.id), workflow_id: Number(row.workflow_id) };
}

function bearerHash(request: FastifyRequest): Buffer | undefined {
  const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
  return match ? sha256(match[1]!) : undefined;
}

const unauthorized = (reply: FastifyReply) => reply.code(401).send({ error: 'unauthorized' });

type WorkflowParams = { Params: { workflowId: string } };

app.post<WorkflowParams & { Querystring: { token?: string } }>('/api/external/v1/workflows/:workflowId/case_webhooks', async (request, reply) => {
  const token = request.query.token;
  if (!token) return unauthorized(reply);
  const found = await pool.query(sql.workflowByWebhookToken, [request.params.workflowId, sha256(token)]);
  const workflow = found.rows[0];
  if (!workflow) return unauthorized(reply);
  const body = request.body as JsonBody | undefined;
  if (!body || !isObject(body.value)) return reply.code(422).send({ error: 'the request body must be a JSON object' });
  const row = await createCase({
    organizationId: workflow.organization_id,
    workflowId: request.params.workflowId,
    version: workflow.version,
    subject: subject(workflow.name, 'Webhook'),
    mode: 'live',
    source: 'Webhook',
    attributes: body.text,
    actor: 'webhook',
  });
  return reply.code(201).send({ case: { id: Number(row.id), source_type: 'Webhook' } });
});

app.post<WorkflowParams>('/api/external/v1/workflows/:workflowId/cases', async (request, reply) => {
  const hash = bearerHash(request);
  if (!hash) return unauthorized(reply);
  const found = await pool.query(sql.tokenAndWorkflow, [hash, request.params.workflowId]);
  const auth = found.rows[0];
  if (!auth) return unauthorized(reply);
  const body = (request.body as JsonBody | undefined)?.value;
  if (!isObject(body)) return reply.code(422).send({ error: 'the request body must be a JSON object' });
  const row = await createCase({
    organizationId: auth.organization_id,
    workflowId: request.params.workflowId,
    version: auth.version,
    subject: typeof body.subject === 'string' && body.subject ? body.subject : subject(auth.name, 'API'),
    mode: body.mode === 'test' ? 'test' : 'live',
    source: 'API',
    attributes: JSON.stringify(body.attributes ?? {}),
    actor: `api_token:${auth.token_id}`,
  });
  return reply.code(201).send({ case: caseView(row) });
});

app.get<{ Params: { workflowId: string; caseId: string } }>('/api/external/v1/workflows/:workflowId/cases/:caseId', async (request, reply) => {
  const hash = bearerHash(request);
  if (!hash) return unauthorized(reply);
  const token = (await pool.query(sql.token, [hash])).rows[0];
  if (!token) return unauthorized(reply);
  const found = await pool.query(sql.selectCase, [request.params.caseId, request.params.workflowId, token.organization_id]);
  if (!found.rows[0]) return reply.code(404).send({ error: 'case not found' });
  return { case: caseView(found.rows[0]) };
});

app.get('/healthz', async () => ({ status: 'ok' }));

async function shutdown(): Promise<void> {
  await app.close();
  await queue.close();
  await pool.end();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());

await app.listen({ port: PORT, host: '127.0.0.1' });
console.log(`baseline (${lean ? 'lean' : 'service'} schema) listening on ${PORT}`);
