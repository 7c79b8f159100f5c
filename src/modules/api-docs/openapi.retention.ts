import { object, type Schema } from '../../shared/http/openapi-schema.js';
import { AUDIT_DAYS_MIN } from '../retention/domain/retention.js';

/** Retention (docs/deploying.md, "Purge schedule"): what the retention API answers. */

const days = (kind: 'number' | 'integer', what: string, nullable = false): Record<string, Schema> => {
  const type = nullable ? [kind, 'null'] : kind;
  return {
    runs_days: { type, minimum: 0, description: `${what}: days finished runs are kept after they finished.` },
    deliveries_days: { type, minimum: 0, description: `${what}: days ended deliveries and their attempts are kept after they ended.` },
    closed_cases_days: { type, minimum: 0, description: `${what}: days a case stays Closed before it goes; 0 keeps closed cases.` },
    audit_days: { type: nullable ? ['integer', 'null'] : 'integer', minimum: AUDIT_DAYS_MIN, description: `${what}: days audit entries are kept after the change they record (at least ${AUDIT_DAYS_MIN}).` },
  };
};

export const retentionSchemas: Record<string, Schema> = {
  Retention: object(
    {
      retention: object(days('number', 'In force'), [], 'What the purge applies to the organization: its override, or the default.'),
      overrides: object(days('integer', 'Set by the organization', true), [], 'The organization\'s overrides; null follows the default.'),
      defaults: object(days('number', 'Deployment default'), [], 'The deployment\'s RETENTION_*_DAYS (decimal days allowed).'),
    },
    [],
    'How long the organization\'s data is kept.',
  ),
};
