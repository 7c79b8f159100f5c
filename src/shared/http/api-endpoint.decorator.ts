import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { type Schema } from './openapi-schema.js';

/** The error statuses that have a shared response in the document (src/modules/api-docs/openapi.components.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 414 | 415 | 422 | 429 | 503;

export interface SuccessAnswer {
  status: 200 | 201 | 202 | 204;
  description: string;
  schema?: Schema;
  /** Of the success body; application/json unless said otherwise. */
  mediaType?: string;
  headers?: Record<string, Schema>;
}

export interface ApiEndpointOptions {
  operationId: string;
  summary: string;
  /** Paragraphs, joined by blank lines. */
  description: string | string[];
  success: SuccessAnswer;
  /** Other successful answers of the route, each with its own status. */
  alsoAnswers?: SuccessAnswer[];
  /**
   * What each error status means here. The errors every endpoint of its kind answers (a body too
   * large, a wrong credential, Postgres down, ...) are added by the document; one listed here
   * gets this narrower description.
   */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Path and header parameters the route's own decorators do not describe well enough. */
  parameters?: Schema[];
}

/**
 * The OpenAPI description of one route, on the handler itself: @nestjs/swagger derives the path,
 * method, path parameters, query parameters and request body from the route and its request class.
 */
export function ApiEndpoint({ operationId, summary, description, success, alsoAnswers = [], errors = {}, parameters = [] }: ApiEndpointOptions): MethodDecorator {
  return applyDecorators(
    ApiOperation({ operationId, summary, description: [description].flat().join('\n\n') }),
    ...[success, ...alsoAnswers].map(({ status, mediaType, schema, ...response }) =>
      ApiResponse({ status, ...response, ...(schema ? { content: { [mediaType ?? 'application/json']: { schema } } } : {}) } as never)),
    ...Object.entries(errors).map(([code, text]) => ApiResponse({ status: Number(code), description: text })),
    ...parameters.map((parameter) => (parameter.in === 'header' ? ApiHeader(parameter as never) : ApiParam(parameter as never))),
  );
}

/** Said of every endpoint that reads no body. */
export const BODY_IGNORED = 'Takes no body (one that is sent is ignored).';
/** For changes every instance's caches must hear of: the change and its news commit in one transaction (see CacheGeneration). */
export const CHANGE_NOT_SAVED =
  'Postgres did not answer in time: nothing was saved, and no instance was told anything. Should the connection drop while the change commits, look at the resource before repeating the request.';
