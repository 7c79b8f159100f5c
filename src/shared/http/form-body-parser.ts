import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES, UnsupportedMediaTypeError } from './json-body-parser.js';

/** Far more than any person types into a form, far less than the 1 MB of a JSON body. */
export const MAX_FORM_BODY_BYTES = 65_536;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `true`: the route reads `application/x-www-form-urlencoded` bodies (an HTML form's post).
     * `'ignored'`: it takes such a body, or a `multipart/form-data` one (a mail client's one-click
     * unsubscribe, RFC 8058, may send either), and reads nothing of it. No other route takes either.
     */
    formBody?: boolean | 'ignored';
    /**
     * Draws the route's error answers (413, 429, 404, ...) as an HTML page instead of a JSON body:
     * the route is a page people open in a browser.
     */
    errorPage?: (reply: FastifyReply, status: number) => void;
  }
}

/**
 * What a form post says, by name; of a name posted twice, the first counts. A route that declares
 * `formBody` takes at most MAX_FORM_BODY_BYTES, whatever the media type: its route body limit, so
 * a larger declared body is a 413 before any of it is read, and a larger chunked one while
 * streaming (and the body budget charges no more than that). Other routes read these types up to
 * the 1 MB every body may have, then refuse them with 415, as a JSON route refuses every type it
 * does not read. Only requests that send these media types pay for the check.
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (route.config?.formBody) route.bodyLimit ??= MAX_FORM_BODY_BYTES;
  });
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    const refused = refusal(request, [true, 'ignored']);
    if (refused || request.routeOptions.config?.formBody === 'ignored') {
      done(refused, undefined);
      return;
    }
    const fields = new Map<string, string>();
    for (const [name, value] of new URLSearchParams(body as string)) if (!fields.has(name)) fields.set(name, value);
    done(null, fields);
  });
  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    done(refusal(request, ['ignored']), undefined);
  });
}

/** 415 unless the route takes the body (`formBody` one of `takes`); null when it is taken. */
function refusal(request: FastifyRequest, takes: readonly (boolean | 'ignored' | undefined)[]): Error | null {
  return takes.includes(request.routeOptions.config?.formBody) ? null : new UnsupportedMediaTypeError();
}
