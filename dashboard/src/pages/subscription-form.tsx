import { useState } from 'preact/hooks';
import { api, SUBSCRIPTION_EVENTS, type Subscription } from '../api.ts';
import { Field } from '../components.tsx';
import { FieldError, FormError, formProblems, useFocusFirstProblem } from '../form-problems.tsx';
import { useAction, useWorkflows } from '../hooks.ts';

const FIELDS = ['url', 'events', 'workflow_ids'] as const;

/** Workflows to pick from; none picked means every workflow (`workflow_ids` null). */
export function WorkflowPicker({ id, chosen, onChange, error }: { id: string; chosen: number[]; onChange: (ids: number[]) => void; error: string | undefined }) {
  const workflows = useWorkflows();
  const toggle = (workflowId: number, on: boolean) => onChange(on ? [...chosen, workflowId] : chosen.filter((w) => w !== workflowId));
  return (
    <fieldset class="field" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend>Workflows</legend>
      {(workflows.data ?? []).map((w, i) => (
        <label key={w.id} class="checkbox">
          <input id={i === 0 ? id : undefined} type="checkbox" checked={chosen.includes(w.id)} onChange={(e) => toggle(w.id, e.currentTarget.checked)} /> {w.name}
        </label>
      ))}
      <p class="hint" id={`${id}-hint`}>
        None ticked: every workflow, including ones created later.
      </p>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}

/** Creates a subscription, or changes one (`existing`): the same fields, validated by the API. */
export function SubscriptionForm({ existing, onSaved }: { existing?: Subscription; onSaved: (saved: { subscription: Subscription; signing_secret?: string }) => void }) {
  const [url, setUrl] = useState(existing?.url ?? '');
  const [events, setEvents] = useState<string[]>(existing?.events ?? ['case.created']);
  const [workflowIds, setWorkflowIds] = useState<number[]>(existing?.workflow_ids ?? []);
  const save = useAction(async () => {
    const body = { url: url.trim(), events, workflow_ids: workflowIds.length > 0 ? workflowIds : existing ? null : undefined };
    onSaved(existing ? await api.patch<{ subscription: Subscription }>(`/subscriptions/${existing.id}`, { body }) : await api.post<{ subscription: Subscription; signing_secret: string }>('/subscriptions', { body }));
  });
  const problems = formProblems(save.error, FIELDS);
  useFocusFirstProblem(save.error, problems, 'subscription', FIELDS);
  const toggle = (event: string, on: boolean) => setEvents(on ? SUBSCRIPTION_EVENTS.filter((e) => e === event || events.includes(e)) : events.filter((e) => e !== event));
  return (
    <form
      class="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <Field label="URL" id="subscription-url" hint="Where events are POSTed: an http or https URL.">
        <input
          id="subscription-url"
          class="input"
          type="url"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
          placeholder="https://crm.example/hooks/cases"
          aria-invalid={problems.fields.url ? true : undefined}
          aria-describedby={problems.fields.url ? 'subscription-url-error subscription-url-hint' : 'subscription-url-hint'}
        />
        <FieldError id="subscription-url" error={problems.fields.url} />
      </Field>
      <fieldset class="field" aria-describedby={problems.fields.events ? 'subscription-events-error' : undefined}>
        <legend>Events</legend>
        {SUBSCRIPTION_EVENTS.map((event, i) => (
          <label key={event} class="checkbox">
            <input id={i === 0 ? 'subscription-events' : undefined} type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, e.currentTarget.checked)} /> {event}
          </label>
        ))}
        <FieldError id="subscription-events" error={problems.fields.events} />
      </fieldset>
      <WorkflowPicker id="subscription-workflow_ids" chosen={workflowIds} onChange={setWorkflowIds} error={problems.fields.workflow_ids} />
      <FormError error={problems.error} what="subscriptions" />
      <div>
        <button type="submit" class="button button--primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : existing ? 'Save changes' : 'Create subscription'}
        </button>
      </div>
    </form>
  );
}
