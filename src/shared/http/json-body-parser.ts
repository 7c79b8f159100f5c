import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { nestsDeeperThan } from '../json/json-text.js';

export const MAX_BODY_BYTES = 1_048_576;
export const MAX_NESTING_DEPTH = 64;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as sent, when it parsed as JSON. */
    jsonText: string | null;
  }
  interface FastifyContextConfig {
    /** Parse the body as JSON whatever its Content-Type says (webhook senders get it wrong). */
    anyContentType?: boolean;
  }
}

export class UnsupportedMediaTypeError extends AppError {
  readonly code = 'request.unsupported_media_type';
  constructor() {
    super('unsupported media type: send application/json');
  }
}

/**
 * A body that did not parse. The parser returns it instead of throwing so that guards run
 * first: a caller without credentials learns nothing about what the endpoint accepts.
 * Whatever reads the body (the request pipe, the webhook handler) turns it into a 422.
 */
export class UnparseableBody {
  constructor(readonly reason: string) {}
}

const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Replaces Fastify's parsers with one that keeps the exact text, bounds size (413 while
 * streaming, never buffering past the limit) and nesting depth, and keeps `__proto__` and
 * `constructor` keys as plain data (JSON.parse defines them as own properties; Fastify's
 * default parser would refuse them).
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.decorateRequest('jsonText', null);
  // Fastify refuses a Content-Type that is not a media type at all (`json`, `garbage`) before
  // any parser runs; on routes that take any Content-Type the header says nothing, so it goes.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.anyContentType === true && request.headers['content-type'] !== undefined) {
      request.headers['content-type'] = 'application/json';
    }
    done();
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request: FastifyRequest, body, done) => {
    const lenient = request.routeOptions.config?.anyContentType === true;
    if (!lenient && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
      done(new UnsupportedMediaTypeError(), undefined);
      return;
    }
    done(null, parseJsonBody(request, body as string));
  });
}

function parseJsonBody(request: FastifyRequest, text: string): unknown {
  if (text.trim() === '') return new UnparseableBody('request body is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new UnparseableBody('request body is not valid JSON');
  }
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) {
    return new UnparseableBody(`request body nests deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  request.jsonText = text;
  return value;
}
