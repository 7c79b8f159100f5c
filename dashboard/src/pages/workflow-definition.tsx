import { useState } from 'preact/hooks';
import { api, BUILT_IN_STATUSES, type Workflow } from '../api.ts';
import { builderRefusal, DefinitionBuilder } from '../builder/definition-builder.tsx';
import { Alert } from '../components.tsx';
import { DefinitionEditor } from '../definition-editor.tsx';
import { prettyJson } from '../json.ts';

/** The definition as it is written (and PUT back): the workflow view minus the built-in statuses. */
export function definitionOf(workflow: Workflow) {
  return {
    name: workflow.name,
    case_source: workflow.case_source,
    sensitive_data: workflow.sensitive_data,
    statuses: workflow.statuses.filter((status) => !BUILT_IN_STATUSES.includes(status)),
    default_outcome: workflow.default_outcome,
    attributes: workflow.attributes,
    automations: workflow.automations,
    // Written only when set, so that a definition without them reads as it always did; left out, a save would drop them.
    ...(workflow.webhook_dedup ? { webhook_dedup: workflow.webhook_dedup } : {}),
    ...(workflow.requester_attribute ? { requester_attribute: workflow.requester_attribute } : {}),
    ...(workflow.on_sla ? { on_sla: workflow.on_sla } : {}),
  };
}

/**
 * The draft definition's text that the Builder and JSON tabs both edit. It starts as the
 * workflow's draft and starts over whenever the page gets a new workflow (a save, a publish).
 */
export function useDefinitionDraft(workflow: Workflow | undefined, onSaved: (workflow: Workflow) => void) {
  const [edited, setEdited] = useState<{ text: string; of: Workflow } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const saved = workflow === undefined ? '' : prettyJson(definitionOf(workflow));
  const text = edited !== null && edited.of === workflow ? edited.text : saved;
  return {
    text,
    /** Edited since the last save (a publish or a restore would start over from the saved draft). */
    unsaved: text !== saved,
    setText: (next: string) => {
      if (workflow) setEdited({ text: next, of: workflow });
      setRefusal(null);
    },
    /** Why the JSON tab may not be left for the Builder (it would lose what the Builder cannot show), or null. */
    refusal,
    mayOpenBuilder: () => {
      const reason = builderRefusal(text);
      setRefusal(reason);
      return reason === null;
    },
    save: async (body: string) => {
      if (!workflow) return;
      const { workflow: next } = await api.put<{ workflow: Workflow }>(`/workflows/${workflow.id}`, { rawBody: body });
      onSaved(next);
    },
  };
}

export type DefinitionDraft = ReturnType<typeof useDefinitionDraft>;

export function BuilderTab({ draft }: { draft: DefinitionDraft }) {
  // Reached from another tab than JSON (or by address) while the JSON tab's text is invalid.
  const refusal = builderRefusal(draft.text);
  if (refusal) return <Alert tone="error">{refusal} Correct it on the JSON tab.</Alert>;
  return <DefinitionBuilder text={draft.text} onTextChange={draft.setText} save={draft.save} />;
}

export function JsonTab({ draft }: { draft: DefinitionDraft }) {
  return (
    <div class="stack">
      {draft.refusal && <Alert tone="error">{draft.refusal} Correct it here first.</Alert>}
      <DefinitionEditor text={draft.text} onTextChange={draft.setText} submitLabel="Save draft" pendingLabel="Saving…" savedMessage="Draft saved. Publish it to use it for new cases." onSubmit={draft.save} />
    </div>
  );
}
