/**
 * The full example of the workflow definition contract (workflows-and-automation.md): every
 * attribute type, required and formatted attributes, custom statuses, a default outcome, and
 * automations with a condition, an HTTP request, `set_attributes`, `set_status` and `close`.
 *
 * The one copy of it: the definition's unit and end-to-end tests, the tests' sample workflow
 * (test/support/scenario.ts) and the benchmark's attribute schema start from it. Plain data
 * without imports. A new object on every call: callers are free to change theirs.
 */
export function exampleDefinition() {
  return {
    name: 'Customer escalations',
    case_source: 'direct',
    sensitive_data: false,
    statuses: ['Triage', 'Waiting on customer'],
    default_outcome: 'Resolved',
    attributes: {
      customer_email: { type: 'string', required: true, format: 'email' },
      priority: { type: 'integer', enum: [1, 2, 3] },
      amount: { type: 'number' },
      vip: { type: 'boolean' },
      order: { type: 'object' },
      tags: { type: 'array' },
      raw: { type: 'any' },
    },
    automations: {
      Open: [
        {
          if: { field: 'case.mode', equals: 'test' },
          then: [{ set_attributes: { note: 'test traffic' } }],
          else: [{ http_request: { method: 'POST', url: 'https://crm.example/hooks', body: { email: '{{ attributes.customer_email }}' }, save_response_as: 'crm' } }],
        },
        { set_status: 'Triage' },
      ],
      Triage: [{ close: { outcome: 'Auto-resolved' } }],
    },
  };
}
