import { object, type Schema, timestamp } from '../../shared/http/openapi-schema.js';

/** Organization secrets for automation (integrations.md §3): what the secrets API answers. */

const NAME_PATTERN = '^[A-Z][A-Z0-9_]{0,63}$';

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
};
