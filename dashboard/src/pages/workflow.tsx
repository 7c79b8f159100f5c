import { useId, useState } from 'preact/hooks';
import { api, errorMessage, type Workflow } from '../api.ts';
import { Alert, ConfirmDialog, Loading, PageHeader } from '../components.tsx';
import { useAction, useLoad, useTitle } from '../hooks.ts';
import { Link, navigate } from '../router.tsx';
import { Tabs } from '../tabs.tsx';
import { CaseConfiguration } from './workflow-case-configuration.tsx';
import { BuilderTab, definitionOf, JsonTab, useDefinitionDraft } from './workflow-definition.tsx';
import { WorkflowOverview } from './workflow-overview.tsx';
import { WorkflowTestRun } from './workflow-test-run.tsx';
import { WorkflowVersions } from './workflow-versions.tsx';
import { PublishedBadge } from './workflows.tsx';
import { can, type Operation } from '../session.ts';

const TABS: { id: string; label: string; needs?: Operation }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'builder', label: 'Builder' },
  { id: 'json', label: 'JSON' },
  { id: 'test-run', label: 'Test run' },
  { id: 'versions', label: 'Versions' },
  // Where cases come from is the workflow's channel secret (webhook URL, inbound address, form), an admin's to see.
  { id: 'case-configuration', label: 'Case Configuration', needs: 'getWebhook' },
];

export function WorkflowPage({ id, tab }: { id: number; tab: string | null }) {
  const loaded = useLoad(() => api.get<{ workflow: Workflow }>(`/workflows/${id}`).then((r) => r.workflow), [id]);
  const workflow = loaded.data;
  useTitle(workflow?.name ?? `Workflow ${id}`);
  const tabs = TABS.filter((t) => t.needs === undefined || can(t.needs));
  const selected = tabs.some((t) => t.id === tab) ? tab! : 'overview';
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmUnpublish, setConfirmUnpublish] = useState(false);
  const draft = useDefinitionDraft(workflow, (next) => {
    loaded.setData(next);
    setNotice(null);
  });

  const change = useAction(async (action: 'publish' | 'unpublish') => {
    const { workflow: next } = await api.post<{ workflow: Workflow }>(`/workflows/${id}/${action}`);
    loaded.setData(next);
    setConfirmUnpublish(false);
    setNotice(action === 'publish' ? `Published version ${next.version}. New cases use it from now on.` : 'Unpublished. The workflow takes no new cases and its webhook URL answers 401 until you publish it again.');
  });

  // Publishing a draft that is the live version would make nothing new; republishing an unpublished one takes it live again.
  const upToDate = workflow?.published === true && !workflow.draft_changed;
  const publishStateId = useId();
  const actions = workflow && (
    <>
      {workflow.published && can('unpublishWorkflow') && (
        <button type="button" class="button button--secondary" onClick={() => setConfirmUnpublish(true)} disabled={change.pending}>
          Unpublish
        </button>
      )}
      {can('publishWorkflow') && (
        <button type="button" class="button button--primary" onClick={() => change.run('publish')} disabled={change.pending || upToDate} aria-describedby={upToDate ? publishStateId : undefined}>
          {workflow.published ? 'Publish draft' : 'Publish'}
        </button>
      )}
    </>
  );

  return (
    <>
      <PageHeader title={workflow?.name ?? `Workflow ${id}`} eyebrow={<Link href="/workflows">Workflows</Link>} actions={actions}>
        {workflow && (
          <p class="page-header__meta">
            <PublishedBadge workflow={workflow} />
            <span>ID {workflow.id}</span>
            {can('publishWorkflow') && (
              <span id={publishStateId}>
                {upToDate
                  ? `The draft is the published version ${workflow.version}: change it to publish a new version.`
                  : workflow.draft_changed
                    ? `Publishing freezes the draft as version ${(workflow.version ?? 0) + 1}.`
                    : `The draft is version ${workflow.version}: publishing takes it live again.`}
              </span>
            )}
            {draft.unsaved && <strong>Unsaved changes: Save draft before publishing, or they are lost.</strong>}
          </p>
        )}
      </PageHeader>
      {loaded.error && <Alert tone="error">{loaded.error}</Alert>}
      {loaded.loading && !workflow && <Loading />}
      {notice && <Alert tone="success">{notice}</Alert>}
      {change.error !== null && !confirmUnpublish && <Alert tone="error">{errorMessage(change.error)}</Alert>}
      {workflow && (
        <Tabs label="Workflow sections" tabs={tabs} selected={selected} onSelect={(next) => {
            // Invalid JSON would be lost on the Builder: the JSON tab keeps it until it is corrected.
            if (selected === 'json' && next === 'builder' && !draft.mayOpenBuilder()) return;
            navigate(`/workflows/${id}?tab=${next}`, { replace: true });
          }}>
          {selected === 'overview' && <WorkflowOverview workflow={workflow} />}
          {selected === 'builder' && <BuilderTab draft={draft} />}
          {selected === 'json' && <JsonTab draft={draft} />}
          {selected === 'test-run' && <WorkflowTestRun workflow={workflow} />}
          {selected === 'versions' && (
            <WorkflowVersions
              workflow={workflow}
              draft={definitionOf(workflow)}
              onRestored={(next, version) => {
                loaded.setData(next);
                setNotice(`Version ${version} is now the draft. Nothing was published: publish the draft to use it for new cases.`);
              }}
            />
          )}
          {selected === 'case-configuration' && <CaseConfiguration workflow={workflow} />}
        </Tabs>
      )}
      <ConfirmDialog
        open={confirmUnpublish}
        title="Unpublish this workflow?"
        confirmLabel="Unpublish"
        danger
        pending={change.pending}
        error={change.error !== null ? errorMessage(change.error) : null}
        onConfirm={() => change.run('unpublish')}
        onCancel={() => {
          setConfirmUnpublish(false);
          change.clearError();
        }}
      >
        <p>
          <strong>{workflow?.name}</strong> will stop taking new cases: the cases API refuses them and its webhook URL answers 401 until you publish again. Existing cases are not affected.
        </p>
      </ConfirmDialog>
    </>
  );
}
