import { useEffect, useId, useState } from 'preact/hooks';
import { api, errorMessage, type Workflow } from '../api.ts';
import type { components } from '../api-schema.generated.ts';
import { Alert, ConfirmDialog, DateTime, EmptyState, Field, ItemTable, Loading, Select } from '../components.tsx';
import { useAction, useLoad } from '../hooks.ts';
import { prettyJson } from '../json.ts';
import { type DiffRow, diffLines, sideBySide } from '../line-diff.ts';

type VersionSummary = components['schemas']['WorkflowVersionSummary'];
type Version = components['schemas']['WorkflowVersion'];
type Definition = Version['definition'];

const DRAFT = 'draft';
/** Keys in the order the definition is written, so that two definitions stored in different key orders diff line by line. */
const DEFINITION_KEYS = ['name', 'case_source', 'sensitive_data', 'statuses', 'default_outcome', 'attributes', 'automations', 'webhook_dedup'] as const;

function definitionText(definition: Partial<Definition>): string {
  const ordered: Record<string, unknown> = {};
  for (const key of DEFINITION_KEYS) if (definition[key] !== undefined && definition[key] !== null) ordered[key] = definition[key];
  for (const [key, value] of Object.entries(definition)) if (!(key in ordered) && value !== undefined && value !== null) ordered[key] = value;
  return prettyJson(ordered);
}

const sideName = (side: string) => (side === DRAFT ? 'the draft' : `version ${side}`);

/**
 * The Versions tab (builder.md §1): the versions published, a side-by-side diff of any two of
 * them or of one and the draft, and restoring a version into the draft (nothing is published).
 */
export function WorkflowVersions({ workflow, draft, onRestored }: { workflow: Workflow; draft: Partial<Definition>; onRestored: (workflow: Workflow, version: number) => void }) {
  const listed = useLoad(() => api.get<{ versions: VersionSummary[] }>(`/workflows/${workflow.id}/versions`).then((r) => r.versions), [workflow.id, workflow.version]);
  const versions = listed.data ?? [];
  const [confirming, setConfirming] = useState<number | null>(null);
  const restore = useAction(async (version: number) => {
    const { workflow: next } = await api.post<{ workflow: Workflow }>(`/workflows/${workflow.id}/versions/${version}/restore`);
    setConfirming(null);
    onRestored(next, version);
  });

  return (
    <div class="stack">
      <section class="card" aria-labelledby="versions-list">
        <h2 id="versions-list" class="card__title">
          Published versions
        </h2>
        {listed.error && <Alert tone="error">{listed.error}</Alert>}
        {listed.loading && !listed.data && <Loading />}
        {listed.data && versions.length === 0 && (
          <EmptyState title="Not published yet">
            <p>Each publish freezes the draft as a new version; they are listed here.</p>
          </EmptyState>
        )}
        {versions.length > 0 && (
          <ItemTable label="Published versions" columns={['Version', 'Published', 'Published by']} compact>
            {versions.map((v) => (
              <tr key={v.version}>
                <th scope="row">
                  Version {v.version}
                  {v.version === workflow.version && workflow.published && <span class="muted"> (live)</span>}
                </th>
                <td>
                  <DateTime iso={v.published_at} />
                </td>
                <td>{v.published_by ?? <span class="muted">Not recorded</span>}</td>
                <td>
                  <button type="button" class="button button--secondary button--small" onClick={() => setConfirming(v.version)} disabled={restore.pending}>
                    Restore version {v.version} into the draft
                  </button>
                </td>
              </tr>
            ))}
          </ItemTable>
        )}
      </section>
      {versions.length > 0 && <VersionDiff workflowId={workflow.id} versions={versions} draftText={definitionText(draft)} />}
      <ConfirmDialog
        open={confirming !== null}
        title={`Restore version ${confirming} into the draft?`}
        confirmLabel="Restore"
        pending={restore.pending}
        error={restore.error !== null ? errorMessage(restore.error) : null}
        onConfirm={() => confirming !== null && restore.run(confirming)}
        onCancel={() => {
          setConfirming(null);
          restore.clearError();
        }}
      >
        <p>The draft is replaced by version {confirming}'s definition. Nothing is published: cases keep using the published version until you publish the draft.</p>
      </ConfirmDialog>
    </div>
  );
}

function VersionDiff({ workflowId, versions, draftText }: { workflowId: number; versions: VersionSummary[]; draftText: string }) {
  const id = useId();
  const [left, setLeft] = useState(String(versions[0]!.version));
  const [right, setRight] = useState(DRAFT);
  // Definitions read so far, by version number (a published version never changes).
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    for (const side of [left, right]) {
      if (side === DRAFT || texts[side] !== undefined) continue;
      api.get<{ version: Version }>(`/workflows/${workflowId}/versions/${side}`).then(
        ({ version }) => setTexts((known) => ({ ...known, [side]: definitionText(version.definition) })),
        (failure: unknown) => setError(errorMessage(failure)),
      );
    }
  }, [workflowId, left, right]);
  const textOf = (side: string) => (side === DRAFT ? draftText : texts[side]);
  const leftText = textOf(left);
  const rightText = textOf(right);
  const options: [string, string][] = [...versions.map((v): [string, string] => [String(v.version), `Version ${v.version}`]), [DRAFT, 'Draft']];

  return (
    <section class="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} class="card__title">
        Compare
      </h2>
      <div class="form-row form-row--top">
        <Field id={`${id}-left`} label="Compare version">
          <Select id={`${id}-left`} value={left} onChange={setLeft} options={options} />
        </Field>
        <Field id={`${id}-right`} label="with version">
          <Select id={`${id}-right`} value={right} onChange={setRight} options={options} />
        </Field>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      {leftText === undefined || rightText === undefined ? <Loading label="Loading the definitions…" /> : <DiffView rows={sideBySide(diffLines(leftText, rightText))} leftName={sideName(left)} rightName={sideName(right)} />}
    </section>
  );
}

const MARKS: Record<DiffRow['kind'], { left: string; right: string }> = {
  same: { left: '', right: '' },
  removed: { left: 'removed', right: '' },
  added: { left: '', right: 'added' },
  changed: { left: 'removed', right: 'added' },
};

function DiffView({ rows, leftName, rightName }: { rows: DiffRow[]; leftName: string; rightName: string }) {
  const removed = rows.filter((row) => row.kind === 'removed' || row.kind === 'changed').length;
  const added = rows.filter((row) => row.kind === 'added' || row.kind === 'changed').length;
  return (
    <>
      <p class="hint" role="status">
        {removed === 0 && added === 0 ? `No differences between ${leftName} and ${rightName}.` : `${removed} line${removed === 1 ? '' : 's'} removed and ${added} added from ${leftName} to ${rightName}. Removed lines are marked −, added lines +.`}
      </p>
      <div class="diff" role="region" aria-label="Version diff" tabIndex={0}>
        <table class="diff__table">
          <caption class="visually-hidden">
            {leftName} on the left, {rightName} on the right
          </caption>
          <thead>
            <tr>
              <th scope="col" colSpan={2}>
                {capitalized(leftName)}
              </th>
              <th scope="col" colSpan={2}>
                {capitalized(rightName)}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, n) => (
              <tr key={n} class={`diff__row diff__row--${row.kind}`}>
                <DiffCells line={row.left} mark={MARKS[row.kind].left} />
                <DiffCells line={row.right} mark={MARKS[row.kind].right} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function DiffCells({ line, mark }: { line: DiffRow['left']; mark: string }) {
  if (line === null) {
    return (
      <>
        <td class="diff__number" />
        <td class="diff__text diff__text--empty" />
      </>
    );
  }
  return (
    <>
      <td class="diff__number">{line.number}</td>
      <td class={`diff__text ${mark ? `diff__text--${mark}` : ''}`}>
        {mark && (
          <>
            <span class="diff__mark" aria-hidden="true">
              {mark === 'removed' ? '−' : '+'}
            </span>
            <span class="visually-hidden">{mark}: </span>
          </>
        )}
        <code>{line.text}</code>
      </td>
    </>
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
