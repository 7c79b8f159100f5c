/**
 * The JSON Schema of an http_request step's arguments: what the definition validator, the
 * builder and /openapi.json know of it (where templates and secrets may stand is checked by
 * workflows/domain/http-request-definition.ts, which a schema cannot say).
 */
export const HTTP_REQUEST_ARGUMENTS = {
  type: 'object',
  description: 'Calls an outside system; 2xx succeeds, anything else fails the run once the retries are spent. A secret\'s value never reaches the case, the timeline, an event, a log line or an error message (a failing step shows `[secret NAME]` in its place); what `save_response_as` stores is what the receiver answered.',
  properties: {
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    url: {
      type: 'string',
      pattern: '^([hH][tT][tT][pP][sS]?://[^/?#{}]+([/?#].*)?|\\{\\{[^{}]+\\}\\})$',
      description: 'An http(s) URL. Templates may stand only after the host (in the path, query or fragment): each value is percent-encoded as one URL component (`/ ? # @ : % &` included), so it can never change the scheme, host, port or the path above it, and a value that would make a `.` or `..` path segment fails the run. A template in the scheme, host, user or port is a 422. `{{ secrets.NAME }}` may stand only in a query value (`?key={{ secrets.CRM_KEY }}`). A url that is exactly one template (`{{ attributes.link }}`) needs `url_from_attribute`. Loopback, private, link-local and metadata addresses are refused unless the service allows them.',
    },
    url_from_attribute: { type: 'boolean', default: false, description: 'The url is exactly one template, and its value (an http(s) URL, else the run fails) is the whole url. The address checks apply to it as to every url. Such a step may not use `{{ secrets.NAME }}` in its headers or body (422): whoever sets the attribute chooses where the request goes.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Templates allowed in values, `{{ secrets.NAME }}` included: put credentials such as an API key in an organization secret (`PUT /api/admin/v1/secrets/{name}`), never in the definition, which every admin can read. A value written with CR, LF or NUL is a 422; one that holds them once filled in fails the run (`header <name> contains a line break`), and nothing is sent.',
    },
    body: { description: 'Any JSON value; templates, `{{ secrets.NAME }}` included, are resolved in its strings.' },
    timeout_ms: { type: 'integer', minimum: 1, maximum: 60000 },
    retries: { type: 'integer', minimum: 0, maximum: 10, default: 3, description: 'Retries with exponential backoff from 1 second on network errors and non-2xx answers.' },
    save_response_as: { type: 'string', minLength: 1, description: 'Attribute that receives the JSON answer. An answer holding a number the attributes\' number rule refuses, or one that would take the attributes past the 1,048,576 bytes a case keeps, fails the run, and nothing is stored.' },
  },
  required: ['method', 'url'],
  additionalProperties: false,
};
