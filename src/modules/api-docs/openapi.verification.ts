import { object, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { HMAC_ALGORITHMS, SIGNATURE_ENCODINGS, SIGNATURE_SCHEMES } from '../workflows/domain/signature-schemes.js';

/** Verified senders (integrations.md §2): what the webhook verification API answers. */

const tolerance: Schema = { type: 'integer', minimum: 1, maximum: 3600, description: 'How far the signed timestamp may be from the service\'s clock, either way (`stripe`, `slack`, `standard_webhooks`).' };

export const verificationSchemas: Record<string, Schema> = {
  WebhookVerification: object(
    {
      scheme: { type: 'string', description: `${SIGNATURE_SCHEMES.map((name) => `\`${name}\``).join(', ')}, or a scheme an extension registered.` },
      tolerance_seconds: tolerance,
      header: { type: 'string', description: '`hmac` only: the header carrying the signature, in lower case.' },
      algorithm: { type: 'string', enum: [...HMAC_ALGORITHMS], description: '`hmac` only.' },
      encoding: { type: 'string', enum: [...SIGNATURE_ENCODINGS], description: '`hmac` only.' },
      prefix: { type: 'string', description: '`hmac` only: text before the encoded MAC (may be empty).' },
      created_at: timestamp('When a verification was first set on the workflow'),
      updated_at: timestamp('When it was last replaced'),
    },
    ['tolerance_seconds', 'header', 'algorithm', 'encoding', 'prefix'],
    'The signature the workflow\'s webhook requires, with the options of its scheme (defaults filled in); the secret is never shown.',
  ),
};
