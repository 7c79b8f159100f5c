import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, InvalidRequestError } from '../errors/app-error.js';
import { nestsDeeperThan } from '../json/json-text.js';

export const MAX_BODY_BYTES = 1_048_576;
export const MAX_NESTING_DEPTH = 64;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Parse the body as JSON whatever its Content-Type says (webhook senders get it wrong). */
    anyContentType?: boolean;
  }
  interface FastifyRequest {
    /**
     * Set by a route's credential check when the body must pass a check over its exact bytes
     * (a webhook's signature) before it is parsed; it throws to refuse. Cleared once it ran.
     */
    rawBodyCheck?: (raw: Buffer) => void;
  }
}

export class UnsupportedMediaTypeError extends AppError {
  readonly code = 'request.unsupported_media_type';
  constructor() {
    super('unsupported media type: send application/json');
  }
}

/**
 * What the parser makes of a body, as `request.body` (undefined when there is none). A body
 * that did not parse is not an error yet: guards run first, so a caller without the right
 * to call the route learns nothing about what it accepts. `readJsonBody` turns it into a 422.
 */
export type ParsedBody = { kind: 'json'; value: unknown; text: string } | { kind: 'unparseable'; reason: string };

export type JsonBody = Extract<ParsedBody, { kind: 'json' }>;

/** The one place an unparseable body becomes a 422, when a handler (or its pipe) reads the body. */
export function readJsonBody(body: unknown): JsonBody | undefined {
  const parsed = body as ParsedBody | undefined;
  if (parsed?.kind === 'unparseable') throw new InvalidRequestError(parsed.reason);
  return parsed;
}

const NO_BODY = Buffer.alloc(0);

/**
 * For a guard: a request that sent no body never reached the parser, so a pending raw-body
 * check runs here over no bytes (a signature can still be over an empty body).
 */
export function checkBodylessRequest(request: FastifyRequest): void {
  request.rawBodyCheck?.(NO_BODY);
}

/** The request body exactly as sent, once `readJsonBody` has accepted it; null when there was none. */
export function jsonText(request: FastifyRequest): string | null {
  const parsed = request.body as ParsedBody | undefined;
  return parsed?.kind === 'json' ? parsed.text : null;
}

const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Replaces Fastify's parsers with one that keeps the exact text, bounds size (413 while
 * streaming, never buffering past the limit) and nesting depth, and keeps `__proto__` and
 * `constructor` keys as plain data (JSON.parse defines them as own properties; Fastify's
 * default parser would refuse them).
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  // Declared up front, so a request that gets a check has the same shape as every other.
  fastify.decorateRequest('rawBodyCheck', undefined);
  // Fastify refuses a Content-Type that is not a media type at all (`json`, `garbage`) before
  // any parser runs; on routes that take any Content-Type the header says nothing, so it goes.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.anyContentType === true && request.headers['content-type'] !== undefined) {
      request.headers['content-type'] = 'application/json';
    }
    done();
  });
  fastify.removeAllContentTypeParsers();
  // Read as bytes (Fastify's one copy of the chunks) so that a raw-body check sees exactly what
  // was sent; the text is decoded from those same bytes, once.
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (request: FastifyRequest, body, done) => {
    const lenient = request.routeOptions.config?.anyContentType === true;
    if (!lenient && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) {
      done(new UnsupportedMediaTypeError(), undefined);
      return;
    }
    const raw = body as Buffer;
    const check = request.rawBodyCheck;
    if (check) {
      request.rawBodyCheck = undefined;
      try {
        check(raw);
      } catch (error) {
        done(error as Error, undefined);
        return;
      }
    }
    done(null, parseJsonBody(raw.toString('utf8')));
  });
}

function parseJsonBody(text: string): ParsedBody {
  if (text.trim() === '') return { kind: 'unparseable', reason: 'request body is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unparseable', reason: 'request body is not valid JSON' };
  }
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) {
    return { kind: 'unparseable', reason: `request body nests deeper than ${MAX_NESTING_DEPTH} levels` };
  }
  return { kind: 'json', value, text };
}
