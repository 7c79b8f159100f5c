import { useState } from 'preact/hooks';
import { api, type Workflow } from '../api.ts';
import { builderRefusal, DefinitionBuilder } from '../builder/definition-builder.tsx';
import { WORKFLOW_TEMPLATES } from '../builder/templates.ts';
import { Alert, PageHeader } from '../components.tsx';
import { DefinitionEditor } from '../definition-editor.tsx';
import { useTitle } from '../hooks.ts';
import { prettyJson } from '../json.ts';
import { Link, navigate } from '../router.tsx';
import { Tabs } from '../tabs.tsx';

const TABS = [
  { id: 'builder', label: 'Builder' },
  { id: 'json', label: 'JSON' },
];

export function NewWorkflowPage() {
  useTitle('New workflow');
  const [template, setTemplate] = useState<string>(WORKFLOW_TEMPLATES[0].id);
  const [text, setText] = useState(() => prettyJson(WORKFLOW_TEMPLATES[0].definition()));
  const [tab, setTab] = useState('builder');
  const [refusal, setRefusal] = useState<string | null>(null);
  const choose = (id: string) => {
    const chosen = WORKFLOW_TEMPLATES.find((t) => t.id === id)!;
    setTemplate(id);
    setText(prettyJson(chosen.definition()));
    setRefusal(null);
  };
  const create = async (text: string) => {
    const { workflow } = await api.post<{ workflow: Workflow }>('/workflows', { rawBody: text });
    navigate(`/workflows/${workflow.id}`);
  };
  return (
    <>
      <PageHeader title="New workflow" eyebrow={<Link href="/workflows">Workflows</Link>}>
        <p class="page-header__lead">Start from a template and build on it. The workflow is created unpublished: publish it when it is ready to take cases.</p>
      </PageHeader>
      <fieldset class="card templates">
        <legend class="card__title">Start from</legend>
        {WORKFLOW_TEMPLATES.map((t) => (
          <label key={t.id} class="templates__option">
            <input type="radio" name="template" value={t.id} checked={template === t.id} onChange={() => choose(t.id)} />
            <span>
              <strong>{t.label}</strong>
              <span class="hint">{t.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {refusal && <Alert tone="error">{refusal}</Alert>}
      <Tabs
        label="New workflow definition"
        tabs={TABS}
        selected={tab}
        onSelect={(next) => {
          // Invalid JSON would be lost on the Builder: the JSON tab keeps it until it is corrected.
          const reason = next === 'builder' ? builderRefusal(text) : null;
          setRefusal(reason);
          if (reason === null) setTab(next);
        }}
      >
        {tab === 'builder' && <DefinitionBuilder text={text} onTextChange={setText} save={create} submitLabel="Create workflow" pendingLabel="Creating…" />}
        {tab === 'json' && <DefinitionEditor text={text} onTextChange={setText} submitLabel="Create workflow" pendingLabel="Creating…" onSubmit={create} />}
      </Tabs>
    </>
  );
}
