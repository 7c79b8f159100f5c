import { jsonContent, responseRef, type Schema } from './openapi.builders.js';

export type Credential = 'apiToken' | 'adminToken' | 'operatorToken' | 'webhookToken' | 'metricsToken';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One endpoint, described by what is particular to it; the errors every endpoint of its kind answers are added by `toPaths`. */
export interface Route {
  method: Method;
  /** OpenAPI template, parameters as `{name}` (Nest's `:name`). */
  path: string;
  tag: string;
  operationId: string;
  summary: string;
  description: string;
  /** null: no credential at all (health probes). */
  credential: Credential | null;
  /** The credential is needed only when the service is configured with one (`/metrics` and METRICS_TOKEN). */
  credentialOptional?: boolean;
  parameters?: Schema[];
  body?: {
    schema: Schema;
    required: boolean;
    description?: string;
    /** The body is parsed as JSON whatever its Content-Type says (no 415). */
    anyContentType?: boolean;
  };
  success: {
    status: 200 | 201 | 204;
    description: string;
    schema?: Schema;
    /** Of the success body; application/json unless said otherwise. */
    mediaType?: string;
    headers?: Record<string, Schema>;
  };
  /**
   * Statuses this endpoint answers besides the automatic ones, with what they mean here; an
   * automatic status listed here gets this narrower description.
   */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** false for the one endpoint that never touches Postgres (so never answers 503). */
  database?: boolean;
}

type ErrorStatus = 400 | 401 | 404 | 413 | 414 | 415 | 422 | 503;

const ERROR_RESPONSES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  404: 'NotFound',
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  503: 'ServiceUnavailable',
};

/** Fastify reads a body for these methods, so each can answer the body-level errors even when the endpoint ignores its body. */
const BODY_METHODS: ReadonlySet<Method> = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The errors a route answers whatever it does: a body can be too large, of the wrong type or
 * not match its length; a path with ids can be malformed or too long; a credential can be
 * wrong; Postgres can be down.
 */
function automaticErrors(route: Route): ErrorStatus[] {
  const takesBody = BODY_METHODS.has(route.method);
  const hasPathParameters = route.path.includes('{');
  return [
    ...(takesBody || hasPathParameters ? [400 as const] : []),
    ...(route.credential ? [401 as const] : []),
    ...(takesBody ? [413 as const] : []),
    ...(hasPathParameters ? [414 as const] : []),
    ...(takesBody && !route.body?.anyContentType ? [415 as const] : []),
    ...(route.database === false ? [] : [503 as const]),
  ];
}

function responses(route: Route): Record<string, Schema> {
  const { status, description, schema, mediaType, headers } = route.success;
  const errors = route.errors ?? {};
  const statuses = [...new Set([...automaticErrors(route), ...(Object.keys(errors).map(Number) as ErrorStatus[])])].sort((a, b) => a - b);
  return {
    [status]: { description, ...(headers ? { headers } : {}), ...(schema ? { content: mediaType ? { [mediaType]: { schema } } : jsonContent(schema) } : {}) },
    ...Object.fromEntries(statuses.map((s) => [s, responseRef(ERROR_RESPONSES[s], errors[s])])),
  };
}

function requestBody(body: NonNullable<Route['body']>): Schema {
  const content = jsonContent(body.schema);
  return {
    required: body.required,
    ...(body.description ? { description: body.description } : {}),
    content: body.anyContentType ? { ...content, '*/*': content['application/json'] } : content,
  };
}

function operation(route: Route): Schema {
  return {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    security: route.credential ? [{ [route.credential]: [] }, ...(route.credentialOptional ? [{}] : [])] : [],
    ...(route.parameters ? { parameters: route.parameters } : {}),
    ...(route.body ? { requestBody: requestBody(route.body) } : {}),
    responses: responses(route),
  };
}

export function toPaths(routes: Route[]): Record<string, Record<string, Schema>> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route);
  return paths;
}
