import { object, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { MAX_CHANGED_POINTERS, MAX_POINTER_CHARS } from '../audit/domain/audit-summary.js';

/** The audit log (people.md §3): what the audit API answers. */
export const auditSchemas: Record<string, Schema> = {
  AuditEntry: object(
    {
      id: { type: 'string', pattern: '^[0-9]+$', description: 'The entry\'s id, increasing in the order entries were written.' },
      at: timestamp('When the change was made'),
      actor: object(
        {
          type: { type: 'string', enum: ['user', 'token', 'operator'], description: 'A signed-in user, an admin token, or the operator token.' },
          id: { type: 'string', description: 'The user\'s or token\'s id; `operator` for the operator.' },
          name: { type: 'string', description: 'The user\'s or token\'s name when the change was made.' },
        },
        [],
        'Who made the change.',
      ),
      action: { type: 'string', description: 'What was done, as `<target>.<verb>` (`workflow.published`, `token.created`).' },
      target: object({ type: { type: 'string', description: 'What kind of thing changed (`workflow`, `token`, `secret`, ...).' }, id: { type: 'string', description: 'Its id (a secret\'s name).' } }, [], 'What was changed.'),
      address: { type: ['string', 'null'], description: 'The IP address the change came from.' },
      summary: { type: 'object', description: `What changed: the JSON Pointers of a draft's changed parts (\`changed\`, at most ${MAX_CHANGED_POINTERS}, each at most ${MAX_POINTER_CHARS} characters, a longer one shortened to a part containing it; \`changed_omitted\` counts the rest), \`from\` and \`to\` of settings, names of what was created. Never a secret value, a token or a webhook URL.` },
    },
    [],
    'One change made through the admin or operator API.',
  ),
};
