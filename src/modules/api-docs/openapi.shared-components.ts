import type { OpenAPIObject } from '@nestjs/swagger';
import type { ErrorStatus } from '../../shared/http/api-endpoint.decorator.js';
import { parameterRef, responseRef, type Schema } from '../../shared/http/openapi-schema.js';

type Operation = Schema & { responses: Record<string, Schema>; parameters?: Schema[]; security?: unknown[]; requestBody?: { content: Record<string, unknown> } };

const ERROR_RESPONSES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

/** Fastify reads a body for these methods, so each can answer the body-level errors even when the endpoint ignores its body. */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The errors a route answers whatever its handler does, from the layers below it: a body can be
 * too large, of the wrong type (unless the route reads any type as JSON) or not match its
 * length; a path with ids can be malformed or too long; a credential can be wrong, and an admin
 * route's role missing; every /api/ route reads Postgres, which can be down.
 */
function automaticErrors(method: string, path: string, operation: Operation): ErrorStatus[] {
  const takesBody = BODY_METHODS.has(method);
  const hasPathParameters = path.includes('{');
  const anyContentType = Boolean(operation.requestBody?.content['*/*']);
  return [
    ...(takesBody || hasPathParameters ? [400 as const] : []),
    ...(operation.security?.length ? [401 as const] : []),
    ...(path.startsWith('/api/admin/') ? [403 as const] : []),
    ...(takesBody ? [413 as const] : []),
    ...(hasPathParameters ? [414 as const] : []),
    ...(takesBody && !anyContentType ? [415 as const] : []),
    ...(path.startsWith('/api/') ? [503 as const] : []),
  ];
}

/** Each error status refers to its shared response (keeping the operation's narrower description), and the automatic ones are added. */
function errorResponses(method: string, path: string, operation: Operation): Record<string, Schema> {
  const own = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
  const described = new Map(own.map(([status, response]) => [Number(status) as ErrorStatus, response.description as string]));
  const statuses = [...new Set([...automaticErrors(method, path, operation), ...described.keys()])].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((status) => [status, responseRef(ERROR_RESPONSES[status], described.get(status))]));
}

/** A path or header parameter that has a shared description is referred to by it. */
function sharedParameter(parameter: Schema, shared: Record<string, Schema>): Schema {
  const sameParameter = (candidate: Schema) => candidate.in === parameter.in && String(candidate.name).toLowerCase() === String(parameter.name).toLowerCase();
  const name = Object.keys(shared).find((key) => sameParameter(shared[key]!));
  return name ? parameterRef(name) : parameter;
}

/** The derived paths, completed with the shared errors and parameters of `components`, and an explicit empty `security` where no credential is needed. */
export function withSharedComponents(paths: OpenAPIObject['paths'], components: { parameters: Record<string, Schema> }): Record<string, Record<string, Schema>> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, Operation>).map(([method, operation]) => {
          const success = Object.entries(operation.responses).filter(([status]) => Number(status) < 400);
          const { parameters = [], ...rest } = operation;
          return [
            method,
            {
              ...rest,
              security: operation.security ?? [],
              // @nestjs/swagger writes an empty list for routes without parameters.
              ...(parameters.length ? { parameters: parameters.map((parameter) => sharedParameter(parameter, components.parameters)) } : {}),
              responses: { ...Object.fromEntries(success), ...errorResponses(method, path, operation) },
            },
          ];
        }),
      ),
    ]),
  );
}
