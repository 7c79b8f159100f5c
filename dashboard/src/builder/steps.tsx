import { createContext, type ComponentChildren } from 'preact';
import { useContext, useId, useRef, useState } from 'preact/hooks';
import type { StepType } from '../api.ts';
import { childPointer, PointerField, ProblemText, useFieldProblem } from './problems.tsx';
import { initialValue, isObject, JsonField, KeyValueEditor, SchemaField, TypedValue, withKey, type JsonObject, type Schema } from './schema-form.tsx';

/** What every step form may offer: the service's step types, the organization's secret names, the declared attribute and status names. */
export interface StepContext {
  stepTypes: readonly StepType[];
  secrets: readonly string[];
  attributes: readonly string[];
  /** The statuses a step may move a case to (all but Error). */
  statuses: readonly string[];
}

export const StepContextProvider = createContext<StepContext>({ stepTypes: [], secrets: [], attributes: [], statuses: [] });

const CASE_FIELDS = ['case.id', 'case.subject', 'case.status', 'case.mode', 'case.workflow_id'];
const OPERATORS = [
  ['equals', 'equals'],
  ['not_equals', 'does not equal'],
  ['in', 'is one of'],
  ['exists', 'exists'],
] as const;
type Operator = (typeof OPERATORS)[number][0];

/** A step's type: its one key, or `if`. */
function stepKind(step: unknown): string | null {
  if (!isObject(step)) return null;
  if ('if' in step) return 'if';
  const keys = Object.keys(step);
  return keys.length === 1 ? keys[0]! : null;
}

function newStep(type: string, stepTypes: readonly StepType[]): JsonObject {
  if (type === 'if') return { if: { field: 'case.mode', equals: '' }, then: [], else: [] };
  const schema = stepTypes.find((t) => t.type === type)?.arguments_schema ?? {};
  return { [type]: initialValue(schema as Schema) };
}

/**
 * A list of steps (a status's automation, an if's branch): each step a form, moved with its
 * Move up / Move down buttons or dragged; new steps by type at the end.
 */
export function StepList({ steps, onChange, pointer, name }: { steps: unknown; onChange: (steps: unknown[]) => void; pointer: string; name: string }) {
  const { stepTypes } = useContext(StepContextProvider);
  const list = Array.isArray(steps) ? steps : [];
  const id = useId();
  const [type, setType] = useState('');
  const [dragged, setDragged] = useState<number | null>(null);
  // A step is dragged by its frame or legend: in its fields the mouse selects text as usual.
  const [grabbed, setGrabbed] = useState<number | null>(null);
  const listElement = useRef<HTMLOListElement>(null);
  const { error } = useFieldProblem(pointer, id);

  const move = (from: number, to: number, focus?: 'up' | 'down') => {
    if (to < 0 || to >= list.length || from === to) return;
    const next = [...list];
    const [step] = next.splice(from, 1);
    next.splice(to, 0, step);
    onChange(next);
    if (!focus) return;
    // The keyboard stays with the moved step; at an end of the list, on its other (still usable) Move button.
    const atEnd = focus === 'up' ? to === 0 : to === list.length - 1;
    const direction = atEnd ? (focus === 'up' ? 'down' : 'up') : focus;
    requestAnimationFrame(() => listElement.current?.querySelector<HTMLButtonElement>(`:scope > li:nth-child(${to + 1}) > fieldset > .step__tools [data-move="${direction}"]`)?.focus());
  };
  const options = ['if', ...stepTypes.map((t) => t.type)];
  return (
    <div class="steps" data-pointer={pointer}>
      <ProblemText id={id} error={error} />
      {list.length === 0 ? (
        <p class="muted">No steps in {name} yet.</p>
      ) : (
        <ol class="steps__list" aria-label={`Steps of ${name}`} ref={listElement}>
          {list.map((step, i) => (
            <li
              key={i}
              class={dragged === i ? 'step step--dragged' : 'step'}
              draggable={grabbed === i}
              onMouseDown={(e) => {
                e.stopPropagation();
                setGrabbed((e.target as Element).closest('input, select, textarea, button') ? null : i);
              }}
              onDragStart={(e) => {
                e.stopPropagation();
                setDragged(i);
                e.dataTransfer?.setData('text/plain', String(i));
              }}
              onDragEnd={() => {
                setDragged(null);
                setGrabbed(null);
              }}
              onDragOver={(e) => {
                if (dragged !== null) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                e.stopPropagation();
                if (dragged !== null) move(dragged, i);
                setDragged(null);
              }}
            >
              <StepForm
                step={step}
                onChange={(next) => onChange(list.map((old, j) => (j === i ? next : old)))}
                pointer={childPointer(pointer, i)}
                name={`${name} step ${i + 1}`}
                tools={
                  <>
                    <button type="button" class="button button--ghost button--small" data-move="up" disabled={i === 0} onClick={() => move(i, i - 1, 'up')}>
                      Move {name} step {i + 1} up
                    </button>
                    <button type="button" class="button button--ghost button--small" data-move="down" disabled={i === list.length - 1} onClick={() => move(i, i + 1, 'down')}>
                      Move {name} step {i + 1} down
                    </button>
                    <button type="button" class="button button--ghost button--small" onClick={() => onChange(list.filter((_, j) => j !== i))}>
                      Remove {name} step {i + 1}
                    </button>
                  </>
                }
              />
            </li>
          ))}
        </ol>
      )}
      <div class="builder__add">
        <div class="field">
          <label for={`${id}-type`}>New step type for {name}</label>
          <select id={`${id}-type`} class="input" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            <option value="">Choose a step type</option>
            {options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="button button--secondary button--small" disabled={type === ''} onClick={() => onChange([...list, newStep(type, stepTypes)])}>
          Add step to {name}
        </button>
      </div>
    </div>
  );
}

function StepForm({ step, onChange, pointer, name, tools }: { step: unknown; onChange: (step: unknown) => void; pointer: string; name: string; tools: ComponentChildren }) {
  const { stepTypes } = useContext(StepContextProvider);
  const kind = stepKind(step);
  const stepType = stepTypes.find((t) => t.type === kind);
  const object = isObject(step) ? step : {};
  const id = useId();
  const { error } = useFieldProblem(pointer, id);
  let body;
  if (kind === 'if') body = <IfForm step={object} onChange={onChange} pointer={pointer} name={name} />;
  else if (kind === 'set_status' && stepType) body = <StatusPicker value={object[kind]} onChange={(next) => onChange({ [kind]: next })} pointer={childPointer(pointer, kind)} label={`Arguments of ${name}`} />;
  else if (kind === 'http_request' && stepType) body = <HttpRequestForm schema={stepType.arguments_schema as Schema} value={object[kind]} onChange={(next) => onChange({ [kind]: next })} pointer={childPointer(pointer, kind)} name={name} />;
  else if (kind && stepType) body = <SchemaField schema={stepType.arguments_schema as Schema} value={object[kind]} onChange={(next) => onChange({ [kind]: next })} pointer={childPointer(pointer, kind)} label={`Arguments of ${name}`} required />;
  // Its problems show in the JSON field, which edits the step's own pointer.
  else body = <JsonField value={step} onChange={onChange} pointer={pointer} label={`${name}, a step the builder does not know`} />;
  const known = kind !== null && (kind === 'if' || stepType !== undefined);
  return (
    <fieldset class="step__form" data-pointer={known ? pointer : undefined}>
      <legend>
        {name}: <code>{kind ?? 'unknown'}</code>
      </legend>
      <div class="step__tools">{tools}</div>
      {known && <ProblemText id={id} error={error} />}
      {body}
    </fieldset>
  );
}

function IfForm({ step, onChange, pointer, name }: { step: JsonObject; onChange: (step: unknown) => void; pointer: string; name: string }) {
  return (
    <div class="stack">
      <ConditionBuilder condition={step.if} onChange={(next) => onChange({ ...step, if: next })} pointer={childPointer(pointer, 'if')} name={name} />
      <section class="branch" aria-label={`${name}, then`}>
        <h4 class="branch__title">Then</h4>
        <StepList steps={step.then} onChange={(next) => onChange({ ...step, then: next })} pointer={childPointer(pointer, 'then')} name={`${name} then`} />
      </section>
      {step.else === undefined ? (
        <button type="button" class="button button--secondary button--small" onClick={() => onChange({ ...step, else: [] })}>
          Add an else branch to {name}
        </button>
      ) : (
        <section class="branch" aria-label={`${name}, else`}>
          <h4 class="branch__title">Else</h4>
          <StepList steps={step.else} onChange={(next) => onChange({ ...step, else: next })} pointer={childPointer(pointer, 'else')} name={`${name} else`} />
          <button type="button" class="button button--ghost button--small" onClick={() => onChange(withKey(step, 'else', undefined))}>
            Remove the else branch of {name}
          </button>
        </section>
      )}
    </div>
  );
}

/** `{"field": ..., <operator>: value}` (workflows-and-automation.md): a field, an operator and its value. */
function ConditionBuilder({ condition, onChange, pointer, name }: { condition: unknown; onChange: (condition: JsonObject) => void; pointer: string; name: string }) {
  const { attributes } = useContext(StepContextProvider);
  const id = useId();
  const object = isObject(condition) ? condition : {};
  const operator: Operator = OPERATORS.find(([op]) => op in object)?.[0] ?? 'equals';
  const operand = object[operator];
  const field = typeof object.field === 'string' ? object.field : '';
  const changeOperator = (next: Operator) => {
    const carried = next === 'exists' ? true : next === 'in' ? (Array.isArray(operand) ? operand : operand === undefined || typeof operand === 'boolean' ? [] : [operand]) : Array.isArray(operand) ? (operand[0] ?? '') : typeof operand === 'boolean' && operator === 'exists' ? '' : operand;
    onChange({ field, [next]: carried });
  };
  const valueProblem = useFieldProblem(childPointer(pointer, operator), `${id}-value`);
  const fields = [...CASE_FIELDS, ...attributes.map((a) => `attributes.${a}`)];
  return (
    <fieldset class="builder__group condition" data-pointer={pointer}>
      <legend>Condition of {name}</legend>
      <PointerField id={`${id}-field`} pointer={childPointer(pointer, 'field')} label="Field" hint="A field of the case, or one of the workflow's declared attributes.">
        {(aria) => (
          <select {...aria} id={`${id}-field`} class="input input--mono" value={field} onChange={(e) => onChange({ ...object, field: e.currentTarget.value })}>
            {/* A field the lists do not hold (typed on the JSON tab, or an attribute since removed) stays until another is chosen. */}
            {!fields.includes(field) && <option value={field}>{field === '' ? 'Choose a field' : field}</option>}
            {fields.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        )}
      </PointerField>
      <div class="field">
        <label for={`${id}-operator`}>Operator</label>
        <select id={`${id}-operator`} class="input" value={operator} onChange={(e) => changeOperator(e.currentTarget.value as Operator)}>
          {OPERATORS.map(([op, text]) => (
            <option key={op} value={op}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div class="field" data-pointer={childPointer(pointer, operator)}>
        {operator === 'exists' ? (
          <>
            <label for={`${id}-value`}>Whether the field exists</label>
            <select {...valueProblem.aria} id={`${id}-value`} class="input" value={operand === false ? 'false' : 'true'} onChange={(e) => onChange({ field, exists: e.currentTarget.value === 'true' })}>
              <option value="true">it exists</option>
              <option value="false">it does not exist</option>
            </select>
          </>
        ) : operator === 'in' ? (
          <InValues values={Array.isArray(operand) ? operand : []} onChange={(next) => onChange({ field, in: next })} pointer={childPointer(pointer, 'in')} />
        ) : (
          <>
            <label for={`${id}-value`}>Value</label>
            <TypedValue id={`${id}-value`} label="the value" value={operand ?? ''} onChange={(next) => onChange({ field, [operator]: next })} aria={valueProblem.aria} />
          </>
        )}
        <ProblemText id={`${id}-value`} error={valueProblem.error} />
      </div>
    </fieldset>
  );
}

function InValues({ values, onChange, pointer }: { values: unknown[]; onChange: (values: unknown[]) => void; pointer: string }) {
  const id = useId();
  return (
    <fieldset class="builder__group">
      <legend>Values</legend>
      <ol class="builder__items">
        {values.map((value, i) => (
          <li key={i} class="builder__row" data-pointer={childPointer(pointer, i)}>
            <label for={`${id}-${i}`}>Value {i + 1}</label>
            <TypedValue id={`${id}-${i}`} label={`value ${i + 1}`} value={value} onChange={(next) => onChange(values.map((old, j) => (j === i ? next : old)))} aria={{}} />
            <button type="button" class="button button--ghost button--small" onClick={() => onChange(values.filter((_, j) => j !== i))}>
              Remove value {i + 1}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" class="button button--secondary button--small" onClick={() => onChange([...values, ''])}>
        Add a value
      </button>
    </fieldset>
  );
}

/** A set_status step's target: one of the declared statuses (an undeclared one, from the JSON tab, is kept and shown as such). */
function StatusPicker({ value, onChange, pointer, label }: { value: unknown; onChange: (value: string) => void; pointer: string; label: string }) {
  const { statuses } = useContext(StepContextProvider);
  const id = useId();
  const current = typeof value === 'string' ? value : '';
  return (
    <PointerField id={id} pointer={pointer} label={label} hint="The status the case moves to; its steps run next.">
      {(aria) => (
        <select {...aria} id={id} class="input" value={current} onChange={(e) => onChange(e.currentTarget.value)}>
          {!statuses.includes(current) && <option value={current}>{current === '' ? 'Choose a status' : `${current} (not declared)`}</option>}
          {statuses.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      )}
    </PointerField>
  );
}

type BodyMode = 'none' | 'fields' | 'json';

/**
 * http_request: method, url, headers and body with the organization's secrets offered for
 * header and body values; its other arguments come from its schema like any step's.
 */
function HttpRequestForm({ schema, value, onChange, pointer, name }: { schema: Schema; value: unknown; onChange: (value: unknown) => void; pointer: string; name: string }) {
  const { secrets } = useContext(StepContextProvider);
  const id = useId();
  const args = isObject(value) ? value : {};
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const body = args.body;
  const bodyIsFields = isObject(body) && Object.values(body).every((item) => typeof item !== 'object' || item === null);
  const [mode, setMode] = useState<BodyMode>(body === undefined ? 'none' : bodyIsFields ? 'fields' : 'json');
  const changeMode = (next: BodyMode) => {
    setMode(next);
    if (next === 'none') onChange(withKey(args, 'body', undefined));
    else if (next === 'fields' && !isObject(body)) onChange(withKey(args, 'body', {}));
  };
  const field = (key: string) =>
    properties[key] && <SchemaField key={key} schema={properties[key]} value={args[key]} onChange={(next) => onChange(withKey(args, key, next))} pointer={childPointer(pointer, key)} label={required.includes(key) ? `${key} (required)` : key} required={required.includes(key)} />;
  return (
    <div class="stack" data-pointer={pointer}>
      {field('method')}
      {field('url')}
      <KeyValueEditor value={args.headers} onChange={(next) => onChange(withKey(args, 'headers', Object.keys(next).length ? next : undefined))} pointer={childPointer(pointer, 'headers')} label={`Headers of ${name}`} noun="header" textOnly secrets={secrets} />
      <div class="field">
        <label for={`${id}-body`}>Body of {name}</label>
        <select id={`${id}-body`} class="input" value={mode} onChange={(e) => changeMode(e.currentTarget.value as BodyMode)}>
          <option value="none">No body</option>
          <option value="fields">Fields (a JSON object)</option>
          <option value="json">Any JSON</option>
        </select>
      </div>
      {mode === 'fields' && <KeyValueEditor value={body} onChange={(next) => onChange(withKey(args, 'body', next))} pointer={childPointer(pointer, 'body')} label={`Body fields of ${name}`} noun="body field" secrets={secrets} />}
      {mode === 'json' && <JsonField value={body} onChange={(next) => onChange(withKey(args, 'body', next))} pointer={childPointer(pointer, 'body')} label={`Body of ${name}`} />}
      {Object.keys(properties)
        .filter((key) => !['method', 'url', 'headers', 'body'].includes(key))
        .map(field)}
    </div>
  );
}
