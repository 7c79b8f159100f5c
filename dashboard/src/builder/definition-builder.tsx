import { useId, useRef, useState } from 'preact/hooks';
import { api, ApiError, BUILT_IN_STATUSES, errorMessage, type Secret, type StepType, type ValidationProblem } from '../api.ts';
import { Alert, ConfirmDialog, Loading } from '../components.tsx';
import { useLoad } from '../hooks.ts';
import { parseJson, prettyJson } from '../json.ts';
import { childPointer, PointerField, problemMap, ProblemsProvider, ProblemText, useFieldProblem, useUnplacedProblems } from './problems.tsx';
import { AttributesSection } from './attributes-section.tsx';
import { OnSlaSection } from './on-sla-section.tsx';
import { AddByName, isObject, renameKey, withKey, type JsonObject } from './schema-form.tsx';
import { StepContextProvider, StepList } from './steps.tsx';
import { can } from '../session.ts';

const CASE_SOURCES = ['direct', 'ticketing', 'email'];

/** Why the builder cannot show `text` (the JSON tab's draft), or null when it can. */
export function builderRefusal(text: string): string | null {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    return `The definition is not valid JSON, so the Builder cannot show it: ${errorMessage(error)}`;
  }
  if (!isObject(value)) return 'The definition must be a JSON object for the Builder to show it.';
  if (value.statuses !== undefined && !(Array.isArray(value.statuses) && value.statuses.every((s) => typeof s === 'string'))) return 'The Builder needs "statuses" to be a list of names.';
  for (const key of ['attributes', 'automations', 'on_sla']) if (value[key] !== undefined && !isObject(value[key])) return `The Builder needs "${key}" to be an object.`;
  return null;
}

/**
 * The Builder tab: the draft definition as forms. It edits the same text as the JSON tab
 * (`text`, written back pretty-printed), so either tab shows the other's changes.
 */
export function DefinitionBuilder({ text, onTextChange, save, submitLabel = 'Save draft', pendingLabel = 'Saving…' }: { text: string; onTextChange: (text: string) => void; save: (text: string) => Promise<void>; submitLabel?: string; pendingLabel?: string }) {
  const definition = parseJson(text) as JsonObject;
  const context = useLoad(async () => {
    const [types, secrets] = await Promise.all([api.get<{ step_types: StepType[] }>('/step_types'), can('listSecrets') ? api.get<{ secrets: Secret[] }>('/secrets') : { secrets: [] }]);
    return { stepTypes: types.step_types, secrets: secrets.secrets.map((s) => s.name) };
  }, []);
  const [problems, setProblems] = useState<ValidationProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const unplaced = useUnplacedProblems(form, problems);

  const change = (next: JsonObject) => {
    setSaved(false);
    onTextChange(prettyJson(next));
  };
  const set = (key: string, value: unknown) => change(withKey(definition, key, value));
  const submit = async (event: Event) => {
    event.preventDefault();
    setProblems([]);
    setError(null);
    setSaved(false);
    setPending(true);
    try {
      await save(text);
      setSaved(true);
    } catch (failure) {
      if (failure instanceof ApiError && failure.validationErrors.length > 0) setProblems(failure.validationErrors);
      else setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const statuses = Array.isArray(definition.statuses) ? (definition.statuses as string[]) : [];
  const attributes = isObject(definition.attributes) ? definition.attributes : {};
  const automations = isObject(definition.automations) ? definition.automations : {};
  // The status whose removal waits for a yes: its steps would go with it.
  const [removing, setRemoving] = useState<number | null>(null);
  const removeStatus = (index: number) => {
    const status = statuses[index]!;
    const next = withKey(definition, 'statuses', statuses.filter((_, i) => i !== index));
    change(status in automations ? withKey(next, 'automations', withKey(automations, status, undefined)) : next);
  };
  const removingSteps = removing === null ? 0 : countSteps(automations[statuses[removing]!]);
  return (
    <ProblemsProvider value={problemMap(problems)}>
      <form class="builder stack" ref={form} onSubmit={submit} noValidate aria-label="Workflow builder">
        {unplaced.length > 0 && (
          <div class="validation builder__unplaced" role="alert" tabIndex={-1}>
            <p class="validation__title">{unplaced.length === 1 ? '1 problem' : `${unplaced.length} problems`} the form has no field for</p>
            <ul class="validation__list">
              {unplaced.map((problem, i) => (
                <li key={i} class="validation__item">
                  <code class="validation__path">{problem.path === '' ? '(root)' : problem.path}</code>
                  <span class="validation__error">{problem.error}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {problems.length > 0 && unplaced.length < problems.length && <Alert tone="error">The service refused the draft: the problems are shown next to their fields.</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
        {context.error && <Alert tone="error">The step types or secrets could not be loaded: {context.error}</Alert>}
        <GeneralSection definition={definition} set={set} />
        <StatusesSection statuses={statuses} definition={definition} change={change} remove={(index) => (countSteps(automations[statuses[index]!]) > 0 ? setRemoving(index) : removeStatus(index))} />
        <AttributesSection attributes={attributes} set={set} />
        {context.loading && <Loading label="Loading the step types…" />}
        {context.data && (
          <StepContextProvider.Provider value={{ ...context.data, attributes: Object.keys(attributes), statuses: ['Open', ...statuses, 'Closed'] }}>
            <AutomationsSection statuses={statuses} automations={definition.automations} set={set} />
            <OnSlaSection onSla={definition.on_sla} set={set} />
          </StepContextProvider.Provider>
        )}
        <div class="editor__actions">
          <button type="submit" class="button button--primary" disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </button>
          {saved && <Alert tone="success">Draft saved. Publish it to use it for new cases.</Alert>}
        </div>
      </form>
      {/* Outside the builder's form: the dialog has a form of its own. */}
      <ConfirmDialog
        open={removing !== null}
        title={removing === null ? '' : `Remove status ${statuses[removing]}?`}
        confirmLabel="Remove status and its steps"
        danger
        onConfirm={() => {
          if (removing !== null) removeStatus(removing);
          setRemoving(null);
        }}
        onCancel={() => setRemoving(null)}
      >
        <p>
          {removingSteps === 1 ? 'Its 1 step goes with it.' : `Its ${removingSteps} steps go with it.`} Steps that move cases to it stay and must be changed before the draft saves.
        </p>
      </ConfirmDialog>
    </ProblemsProvider>
  );
}

function GeneralSection({ definition, set }: { definition: JsonObject; set: (key: string, value: unknown) => void }) {
  const id = useId();
  const sensitive = useFieldProblem('/sensitive_data', `${id}-sensitive`);
  return (
    <section class="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} class="card__title">
        General
      </h2>
      <PointerField id={`${id}-name`} pointer="/name" label="Name">
        {(aria) => <input {...aria} id={`${id}-name`} class="input" value={typeof definition.name === 'string' ? definition.name : ''} onInput={(e) => set('name', e.currentTarget.value)} />}
      </PointerField>
      <PointerField id={`${id}-source`} pointer="/case_source" label="Case source" hint="direct: the cases API and the incoming webhook; ticketing: the hosted request form; email: an inbound address.">
        {(aria) => (
          <select {...aria} id={`${id}-source`} class="input" value={String(definition.case_source ?? 'direct')} onChange={(e) => set('case_source', e.currentTarget.value)}>
            {CASE_SOURCES.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </select>
        )}
      </PointerField>
      <div class="field" data-pointer="/sensitive_data">
        <label class="checkbox">
          <input {...sensitive.aria} id={`${id}-sensitive`} type="checkbox" checked={definition.sensitive_data === true} onChange={(e) => set('sensitive_data', e.currentTarget.checked)} />
          Sensitive data
        </label>
        <ProblemText id={`${id}-sensitive`} error={sensitive.error} />
      </div>
      <PointerField id={`${id}-outcome`} pointer="/default_outcome" label="Default outcome" hint="Given to a case closed without one; empty for the service's default (Resolved).">
        {(aria) => (
          <input {...aria} id={`${id}-outcome`} class="input" value={typeof definition.default_outcome === 'string' ? definition.default_outcome : ''} onInput={(e) => set('default_outcome', e.currentTarget.value === '' ? null : e.currentTarget.value)} />
        )}
      </PointerField>
    </section>
  );
}

/** How many steps `steps` holds, those inside if branches included. */
export function countSteps(steps: unknown): number {
  if (!Array.isArray(steps)) return 0;
  return steps.reduce<number>((sum, step) => sum + 1 + (isObject(step) && 'if' in step ? countSteps(step.then) + countSteps(step.else) : 0), 0);
}

/** `value` with every `{"set_status": from}` step in it, at any depth, naming `to` instead. */
function renameStatusTargets(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameStatusTargets(item, from, to));
  if (!isObject(value)) return value;
  if (Object.keys(value).length === 1 && value.set_status === from) return { set_status: to };
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renameStatusTargets(item, from, to)]));
}

/** Custom statuses; renaming one carries its steps and every step that moves a case to it (`on_sla`'s too). */
function StatusesSection({ statuses, definition, change, remove }: { statuses: string[]; definition: JsonObject; change: (definition: JsonObject) => void; remove: (index: number) => void }) {
  const id = useId();
  const automations = isObject(definition.automations) ? definition.automations : {};
  const rename = (index: number, to: string) => {
    const from = statuses[index]!;
    if (to === '' || to === from || statuses.includes(to) || BUILT_IN_STATUSES.includes(to)) return;
    const next = withKey(definition, 'statuses', statuses.map((s, i) => (i === index ? to : s)));
    const renamed = withKey(next, 'automations', renameStatusTargets(renameKey(automations, from, to), from, to));
    change(isObject(definition.on_sla) ? withKey(renamed, 'on_sla', renameStatusTargets(definition.on_sla, from, to)) : renamed);
  };
  return (
    <section class="card stack" aria-labelledby={`${id}-title`} data-pointer="/statuses">
      <h2 id={`${id}-title`} class="card__title">
        Statuses
      </h2>
      <p class="hint">Open, Closed and Error always exist. A case starts in Open.</p>
      <ProblemText id={`${id}-statuses`} error={useFieldProblem('/statuses', `${id}-statuses`).error} />
      {statuses.length > 0 && (
        <ul class="builder__items">
          {statuses.map((status, i) => (
            <li key={i} class="builder__row">
              <PointerField id={`${id}-${i}`} pointer={childPointer('/statuses', i)} label={`Name of status ${i + 1}`}>
                {(aria) => <input {...aria} id={`${id}-${i}`} class="input" value={status} onChange={(e) => rename(i, e.currentTarget.value.trim())} />}
              </PointerField>
              <button type="button" class="button button--ghost button--small" onClick={() => remove(i)}>
                Remove status {status}
              </button>
            </li>
          ))}
        </ul>
      )}
      <AddByName noun="status" taken={[...BUILT_IN_STATUSES, ...statuses]} onAdd={(name) => change(withKey(definition, 'statuses', [...statuses, name]))} />
    </section>
  );
}

/** Each status's steps, run when a case enters it; a status without steps has no entry. */
function AutomationsSection({ statuses, automations, set }: { statuses: string[]; automations: unknown; set: (key: string, value: unknown) => void }) {
  const id = useId();
  const object = isObject(automations) ? automations : {};
  const shown = [...new Set(['Open', ...statuses, 'Closed', ...Object.keys(object)])];
  return (
    <section class="card stack" aria-labelledby={`${id}-title`} data-pointer="/automations">
      <h2 id={`${id}-title`} class="card__title">
        Automations
      </h2>
      <p class="hint">A status’s steps run each time a case enters it.</p>
      {shown.map((status) => (
        <section key={status} class="automation" aria-labelledby={`${id}-${status}`}>
          <h3 id={`${id}-${status}`} class="automation__title">
            When a case enters {status}
          </h3>
          <StepList steps={object[status]} onChange={(steps) => set('automations', withKey(object, status, steps.length ? steps : undefined))} pointer={childPointer('/automations', status)} name={status} />
        </section>
      ))}
    </section>
  );
}
