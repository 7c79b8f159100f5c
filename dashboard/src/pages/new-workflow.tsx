import { useState } from 'preact/hooks';
import { exampleDefinition } from '../../../src/modules/workflows/domain/example-definition.ts';
import { api, type Workflow } from '../api.ts';
import { PageHeader } from '../components.tsx';
import { DefinitionEditor } from '../definition-editor.tsx';
import { useTitle } from '../hooks.ts';
import { prettyJson } from '../json.ts';
import { Link, navigate } from '../router.tsx';

export function NewWorkflowPage() {
  useTitle('New workflow');
  const [text, setText] = useState(() => prettyJson(exampleDefinition()));
  const create = async (text: string) => {
    const { workflow } = await api.post<{ workflow: Workflow }>('/workflows', { rawBody: text });
    navigate(`/workflows/${workflow.id}`);
  };
  return (
    <>
      <PageHeader title="New workflow" eyebrow={<Link href="/workflows">Workflows</Link>}>
        <p class="page-header__lead">Start from this template and adjust it. The workflow is created unpublished: publish it when it is ready to take cases.</p>
      </PageHeader>
      {/* The contract's example: valid, and it shows each part of a definition. */}
      <DefinitionEditor text={text} onTextChange={setText} submitLabel="Create workflow" pendingLabel="Creating…" onSubmit={create} />
    </>
  );
}
