import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
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
 * What a form post says, by name; of a name posted twice, the first counts. Read up to the 1 MB
 * every body may have (413 past it, while streaming), then refused with 413 past
 * MAX_FORM_BODY_BYTES on a form route and with 415 on any other route, as a JSON route refuses
 * every type it does not read. Only requests that send these media types pay for the check.
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    const refused = refusal(request, body as string, [true, 'ignored']);
    if (refused || request.routeOptions.config?.formBody === 'ignored') {
      done(refused, undefined);
      return;
    }
    const fields = new Map<string, string>();
    for (const [name, value] of new URLSearchParams(body as string)) if (!fields.has(name)) fields.set(name, value);
    done(null, fields);
  });
  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    done(refusal(request, body as string, ['ignored']), undefined);
  });
}

/** 415 unless the route takes the body (`formBody` one of `takes`), 413 past MAX_FORM_BODY_BYTES; null when it is taken. */
function refusal(request: FastifyRequest, body: string, takes: readonly (boolean | 'ignored' | undefined)[]): Error | null {
  if (!takes.includes(request.routeOptions.config?.formBody)) return new UnsupportedMediaTypeError();
  if (Buffer.byteLength(body) > MAX_FORM_BODY_BYTES) return new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  return null;
}
