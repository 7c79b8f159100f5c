import { api, type Workflow } from '../api.ts';
import { PageHeader } from '../components.tsx';
import { DefinitionEditor } from '../definition-editor.tsx';
import { useTitle } from '../hooks.ts';
import { prettyJson } from '../json.ts';
import { Link, navigate } from '../router.tsx';

/** A small, valid starting point that shows each part of a definition. */
export const DEFINITION_TEMPLATE = {
  name: 'Support requests',
  case_source: 'direct',
  sensitive_data: false,
  statuses: ['Triage', 'Waiting on customer'],
  default_outcome: 'Resolved',
  attributes: {
    customer_email: { type: 'string', required: true, format: 'email' },
    summary: { type: 'string' },
    priority: { type: 'integer', enum: [1, 2, 3] },
  },
  automations: {
    Open: [{ set_status: 'Triage' }],
  },
};

export function NewWorkflowPage() {
  useTitle('New workflow');
  const create = async (text: string) => {
    const { workflow } = await api.post<{ workflow: Workflow }>('/workflows', { rawBody: text });
    navigate(`/workflows/${workflow.id}`);
  };
  return (
    <>
      <PageHeader title="New workflow" eyebrow={<Link href="/workflows">Workflows</Link>}>
        <p class="page-header__lead">Start from this template and adjust it. The workflow is created unpublished: publish it when it is ready to take cases.</p>
      </PageHeader>
      <DefinitionEditor initialText={prettyJson(DEFINITION_TEMPLATE)} submitLabel="Create workflow" pendingLabel="Creating…" onSubmit={create} />
    </>
  );
}
