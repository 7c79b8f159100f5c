import { errorCodes, type FastifyInstance } from 'fastify';
import { MAX_BODY_BYTES, UnsupportedMediaTypeError } from './json-body-parser.js';

/** Far more than any person types into a form, far less than the 1 MB of a JSON body. */
export const MAX_FORM_BODY_BYTES = 65_536;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads `application/x-www-form-urlencoded` bodies (an HTML form's post); no other route does. */
    formBody?: boolean;
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
 * every type it does not read. Only requests that send this media type pay for the check.
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    if (request.routeOptions.config?.formBody !== true) {
      done(new UnsupportedMediaTypeError(), undefined);
      return;
    }
    const text = body as string;
    if (Buffer.byteLength(text) > MAX_FORM_BODY_BYTES) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
      return;
    }
    const fields = new Map<string, string>();
    for (const [name, value] of new URLSearchParams(text)) if (!fields.has(name)) fields.set(name, value);
    done(null, fields);
  });
}
