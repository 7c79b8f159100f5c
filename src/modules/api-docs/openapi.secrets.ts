import { listOf, object, type Schema, schemaRef, timestamp, wrapped } from './openapi.builders.js';
import type { Route } from './openapi.operations.js';

/** Organization secrets for automation (integrations.md §3): endpoints and schemas. */

const SECRETS = '/api/admin/v1/secrets';
const NAME_PATTERN = '^[A-Z][A-Z0-9_]{0,63}$';
/** Every secrets operation is an admin one, under the Secrets tag. */
const secretRoute = (route: Omit<Route, 'tag' | 'credential'>): Route => ({ ...route, tag: 'Secrets', credential: 'adminToken' });
const nameParameter = (description: string): Schema => ({ name: 'name', in: 'path', required: true, description, schema: { type: 'string', pattern: NAME_PATTERN } });

export const secretSchemas: Record<string, Schema> = {
  Secret: object(
    {
      name: { type: 'string', pattern: NAME_PATTERN, description: 'Used as `{{ secrets.NAME }}` in http_request headers, url query values and body.' },
      created_at: timestamp('When the secret was first stored'),
      updated_at: timestamp('When its value was last replaced'),
    },
    [],
    'An organization secret; its value is never shown.',
  ),
  PutSecretRequest: object({ value: { type: 'string', minLength: 1, description: 'The value: 1 to 8,192 bytes of UTF-8. Stored encrypted (AES-256-GCM); never shown, logged or written to a case, the timeline or an error.' } }),
};

export const secretRoutes: Route[] = [
  secretRoute({
    method: 'put',
    path: `${SECRETS}/{name}`,
    operationId: 'putSecret',
    summary: 'Create or replace a secret',
    description: [
      'Stores a credential for automation, such as a CRM API key, so that workflow definitions hold `{{ secrets.NAME }}` instead of the credential itself (definitions are plain JSON, shown to every admin). A definition may use it in http_request `headers`, url query values and `body` only; anywhere else it is a 422 when the definition is saved.',
      'Runs read the value when their request is sent: replacing a secret acts on the next request, deleting one makes runs that need it fail with an error naming the secret.',
    ].join('\n\n'),
    parameters: [nameParameter('`[A-Z][A-Z0-9_]{0,63}`; any other name is a 422.')],
    body: { schema: schemaRef('PutSecretRequest'), required: true },
    success: { status: 200, description: 'The secret, without its value.', schema: wrapped('secret', schemaRef('Secret')) },
    errors: { 422: 'A name that is not `[A-Z][A-Z0-9_]{0,63}`; `value` missing, not a string, empty or over 8,192 bytes; an unsupported key; a body that is not a valid JSON object.' },
  }),
  secretRoute({
    method: 'get',
    path: SECRETS,
    operationId: 'listSecrets',
    summary: 'List secrets',
    description: 'The organization\'s secrets by name; never a value.',
    success: { status: 200, description: 'The secrets.', schema: listOf('secrets', 'Secret') },
  }),
  secretRoute({
    method: 'delete',
    path: `${SECRETS}/{name}`,
    operationId: 'deleteSecret',
    summary: 'Delete a secret',
    description: 'Runs that need it fail from then on, naming it. Takes no body (one that is sent is ignored).',
    parameters: [nameParameter('The secret\'s name; a malformed one names nothing (404).')],
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: 'No secret of this name in the organization.' },
  }),
];
