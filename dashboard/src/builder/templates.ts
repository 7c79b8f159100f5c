/**
 * What "New workflow" starts from: small, valid definitions a newcomer edits in the builder
 * rather than strips down. Each is a new object on every call.
 */
export const WORKFLOW_TEMPLATES = [
  {
    id: 'empty',
    label: 'Empty',
    description: 'A name and nothing else: add statuses, attributes and steps yourself.',
    definition: () => ({ name: 'New workflow', case_source: 'direct', statuses: [], attributes: {}, automations: {} }),
  },
  {
    id: 'support-request',
    label: 'Support request',
    description: 'A request form asks for an email and a category; billing questions go to Triage.',
    definition: () => ({
      name: 'Support requests',
      case_source: 'ticketing',
      statuses: ['Triage', 'Waiting on customer'],
      attributes: {
        customer_email: { type: 'string', required: true, format: 'email' },
        category: { type: 'string', enum: ['billing', 'technical', 'other'] },
      },
      automations: { Open: [{ if: { field: 'attributes.category', equals: 'billing' }, then: [{ set_status: 'Triage' }] }] },
    }),
  },
  {
    id: 'webhook-triage',
    label: 'Webhook triage',
    description: 'Another system posts events to a webhook; high-severity ones go to Triage.',
    definition: () => ({
      name: 'Webhook triage',
      case_source: 'direct',
      statuses: ['Triage'],
      attributes: {
        event: { type: 'string', required: true },
        severity: { type: 'string', enum: ['low', 'high'] },
      },
      automations: { Open: [{ if: { field: 'attributes.severity', equals: 'high' }, then: [{ set_status: 'Triage' }] }] },
    }),
  },
] as const;
