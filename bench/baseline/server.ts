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
 * Reads DATABASE_URL, REDIS_URL, REDIS_PREFIX (optional) and PORT.
 */
import Queue from 'bull';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import pg from 'pg';

const { DATABASE_URL, REDIS_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL) throw new Error('DATABASE_URL and REDIS_URL are required');
const PORT = Number(process.env.PORT ?? 3100);
const REDIS_PREFIX = process.env.REDIS_PREFIX ?? 'baseline';

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20, application_name: 'bench-baseline' });
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

const WORKFLOW_BY_WEBHOOK_TOKEN = `
  SELECT w.organization_id, w.version, v.definition->>'name' AS name
  FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id AND v.version = w.version
  WHERE w.id = $1 AND w.webhook_token_hash = $2 AND w.published`;
const TOKEN_AND_WORKFLOW = `
  SELECT t.id AS token_id, t.organization_id, w.version, v.definition->>'name' AS name
  FROM access_tokens t
  JOIN workflows w ON w.id = $2 AND w.organization_id = t.organization_id AND w.published
  JOIN workflow_versions v ON v.workflow_id = w.id AND v.version = w.version
  WHERE t.token_hash = $1 AND t.deleted_at IS NULL AND t.scope = 'api'`;
const TOKEN = `SELECT id, organization_id FROM access_tokens WHERE token_hash = $1 AND deleted_at IS NULL AND scope = 'api'`;
const CASE_FIELDS = 'id, workflow_id, subject, status, outcome, mode, attributes, created_at, updated_at';
const INSERT_CASE = `
  INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
  VALUES ($1, $2, $3, $4, 'Open', $5, $6, $7::jsonb) RETURNING ${CASE_FIELDS}`;
const INSERT_EVENT = `INSERT INTO case_events (case_id, type, actor, data) VALUES ($1, 'created', $2, $3::jsonb)`;
const SELECT_CASE = `SELECT ${CASE_FIELDS} FROM cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`;

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
    const inserted = await client.query(INSERT_CASE, [c.organizationId, c.workflowId, c.version, c.subject, c.mode, c.source, c.attributes]);
    row = inserted.rows[0];
    await client.query(INSERT_EVENT, [row.id, c.actor, JSON.stringify({ source: c.source, mode: c.mode, status: 'Open' })]);
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
  const found = await pool.query(WORKFLOW_BY_WEBHOOK_TOKEN, [request.params.workflowId, sha256(token)]);
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
  const found = await pool.query(TOKEN_AND_WORKFLOW, [hash, request.params.workflowId]);
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
  const token = (await pool.query(TOKEN, [hash])).rows[0];
  if (!token) return unauthorized(reply);
  const found = await pool.query(SELECT_CASE, [request.params.caseId, request.params.workflowId, token.organization_id]);
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
console.log(`baseline listening on ${PORT}`);
