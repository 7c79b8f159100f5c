import { useEffect, useId, useState } from 'preact/hooks';
import { parseJson, prettyJson, RawNumber } from '../json.ts';
import { childPointer, PointerField, ProblemText, useFieldProblem } from './problems.tsx';

/**
 * The JSON Schema subset step types describe their arguments with (GET /step_types): objects
 * with properties and required, strings with enum and format, numbers, integers, booleans,
 * arrays and nested objects. Anything else is edited as free JSON.
 */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  format?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RawNumber);
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? undefined : schema.type;
}

/** A new step's arguments: what its schema requires, at defaults or the smallest valid value. */
export function initialValue(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, initialValue(schema.properties?.[name] ?? {})]));
    case 'array':
      return [];
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? 0);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** `value` with `key` set, or removed when `next` is undefined; the other keys keep their order. */
export function withKey(value: unknown, key: string, next: unknown): JsonObject {
  const copy: JsonObject = { ...(isObject(value) ? value : {}) };
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

/** `value` with key `from` renamed `to` in place; nothing changes when `to` is taken or empty. */
export function renameKey(value: JsonObject, from: string, to: string): JsonObject {
  if (to === '' || to === from || to in value) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key === from ? to : key, item]));
}

interface FieldProps {
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  pointer: string;
  label: string;
  /** Required fields never become undefined: an emptied one keeps its empty value. */
  required: boolean;
}

/** One value's form, chosen by its schema. */
export function SchemaField(props: FieldProps) {
  const { schema } = props;
  const type = typeOf(schema);
  if (schema.enum) return <EnumField {...props} />;
  if (type === 'string') return <TextField {...props} />;
  if (type === 'integer' || type === 'number') return <NumberField {...props} integer={type === 'integer'} />;
  if (type === 'boolean') return <BooleanField {...props} />;
  if (type === 'object' && schema.properties) return <ObjectFields {...props} />;
  if (type === 'object') {
    const valuesAreText = isObject(schema.additionalProperties) && schema.additionalProperties.type === 'string';
    return <KeyValueEditor value={props.value} onChange={props.onChange} pointer={props.pointer} label={props.label} noun="field" textOnly={valuesAreText} hint={schema.description} />;
  }
  if (type === 'array') return <ArrayField {...props} />;
  return <JsonField value={props.value} onChange={props.onChange} pointer={props.pointer} label={props.label} hint={schema.description} />;
}

function TextField({ schema, value, onChange, pointer, label, required }: FieldProps) {
  const id = useId();
  const inputType = schema.format === 'email' ? 'email' : schema.format === 'uri' ? 'url' : 'text';
  return (
    <PointerField id={id} pointer={pointer} label={label} hint={schema.description}>
      {(aria) => (
        <input
          {...aria}
          id={id}
          class="input"
          type={inputType}
          value={typeof value === 'string' ? value : ''}
          spellcheck={false}
          onInput={(e) => onChange(e.currentTarget.value === '' && !required ? undefined : e.currentTarget.value)}
        />
      )}
    </PointerField>
  );
}

function NumberField({ schema, value, onChange, pointer, label, required, integer }: FieldProps & { integer: boolean }) {
  const id = useId();
  const shown = value instanceof RawNumber ? value.source : typeof value === 'number' ? String(value) : '';
  return (
    <PointerField id={id} pointer={pointer} label={label} hint={schema.description}>
      {(aria) => (
        <input
          {...aria}
          id={id}
          class="input"
          type="number"
          step={integer ? 1 : 'any'}
          value={shown}
          onInput={(e) => {
            const text = e.currentTarget.value;
            if (text === '') onChange(required ? 0 : undefined);
            else if (Number.isFinite(Number(text))) onChange(Number(text));
          }}
        />
      )}
    </PointerField>
  );
}

function BooleanField({ schema, value, onChange, pointer, label, required }: FieldProps) {
  const id = useId();
  const { error, aria } = useFieldProblem(pointer, id, Boolean(schema.description));
  return (
    <div class="field" data-pointer={pointer}>
      <label class="checkbox">
        <input {...aria} id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked ? true : required || schema.default === true ? false : undefined)} />
        {label}
      </label>
      {schema.description && (
        <p class="hint" id={`${id}-hint`}>
          {schema.description}
        </p>
      )}
      <ProblemText id={id} error={error} />
    </div>
  );
}

function EnumField({ schema, value, onChange, pointer, label, required }: FieldProps) {
  const id = useId();
  const options = schema.enum!;
  const index = options.findIndex((option) => prettyJson(option) === prettyJson(value));
  return (
    <PointerField id={id} pointer={pointer} label={label} hint={schema.description}>
      {(aria) => (
        <select {...aria} id={id} class="input" value={index === -1 ? '' : String(index)} onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : options[Number(e.currentTarget.value)])}>
          {(!required || index === -1) && <option value="">(not set)</option>}
          {options.map((option, i) => (
            <option key={i} value={String(i)}>
              {typeof option === 'string' ? option : prettyJson(option)}
            </option>
          ))}
        </select>
      )}
    </PointerField>
  );
}

function ObjectFields({ schema, value, onChange, pointer, label }: FieldProps) {
  const object = isObject(value) ? value : {};
  const required = schema.required ?? [];
  return (
    <fieldset class="builder__group" data-pointer={pointer}>
      <legend>{label}</legend>
      {schema.description && <p class="hint">{schema.description}</p>}
      {Object.entries(schema.properties!).map(([name, property]) => (
        <SchemaField
          key={name}
          schema={property}
          value={object[name]}
          onChange={(next) => onChange(withKey(object, name, next))}
          pointer={childPointer(pointer, name)}
          label={required.includes(name) ? `${name} (required)` : name}
          required={required.includes(name)}
        />
      ))}
    </fieldset>
  );
}

function ArrayField({ schema, value, onChange, pointer, label }: FieldProps) {
  const items = Array.isArray(value) ? value : [];
  const itemSchema = schema.items ?? {};
  return (
    <fieldset class="builder__group" data-pointer={pointer}>
      <legend>{label}</legend>
      {schema.description && <p class="hint">{schema.description}</p>}
      <ol class="builder__items">
        {items.map((item, i) => (
          <li key={i} class="builder__row">
            <SchemaField schema={itemSchema} value={item} onChange={(next) => onChange(items.map((old, j) => (j === i ? next : old)))} pointer={childPointer(pointer, i)} label={`${label} item ${i + 1}`} required />
            <button type="button" class="button button--ghost button--small" onClick={() => onChange(items.filter((_, j) => j !== i))}>
              Remove {label} item {i + 1}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" class="button button--secondary button--small" onClick={() => onChange([...items, initialValue(itemSchema)])}>
        Add {label} item
      </button>
    </fieldset>
  );
}

/** Free JSON, for values the form has no shape for; the value changes only while the text parses. */
export function JsonField({ value, onChange, pointer, label, hint }: { value: unknown; onChange: (value: unknown) => void; pointer: string; label: string; hint?: string }) {
  const id = useId();
  const [text, setText] = useState(() => prettyJson(value ?? null));
  const [syntax, setSyntax] = useState<string | null>(null);
  useEffect(() => {
    if (syntax === null && !sameJson(text, value)) setText(prettyJson(value ?? null));
  }, [value]);
  return (
    <PointerField id={id} pointer={pointer} label={`${label} (JSON)`} hint={hint}>
      {(aria) => (
        <>
          <textarea
            {...aria}
            id={id}
            class="input input--mono"
            rows={Math.min(12, text.split('\n').length + 1)}
            value={text}
            spellcheck={false}
            onInput={(e) => {
              const next = e.currentTarget.value;
              setText(next);
              try {
                onChange(parseJson(next));
                setSyntax(null);
              } catch (error) {
                setSyntax(error instanceof Error ? error.message : String(error));
              }
            }}
          />
          {syntax && (
            <p class="field-error" role="alert">
              Not valid JSON yet (the last valid value is kept): {syntax}
            </p>
          )}
        </>
      )}
    </PointerField>
  );
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return prettyJson(parseJson(text)) === prettyJson(value ?? null);
  } catch {
    return false;
  }
}

type ValueKind = 'text' | 'number' | 'boolean' | 'json';
const KIND_LABELS: [ValueKind, string][] = [
  ['text', 'Text'],
  ['number', 'Number'],
  ['boolean', 'True or false'],
  ['json', 'JSON'],
];

function kindOf(value: unknown): ValueKind {
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number' || value instanceof RawNumber) return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'json';
}

function textOf(value: unknown, kind: ValueKind): string {
  if (kind === 'text') return typeof value === 'string' ? value : '';
  if (kind === 'boolean') return value === false ? 'false' : 'true';
  if (kind === 'number') return value instanceof RawNumber ? value.source : typeof value === 'number' ? String(value) : '';
  return prettyJson(value ?? null);
}

function valueOf(kind: ValueKind, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (kind === 'text') return { ok: true, value: text };
  if (kind === 'boolean') return { ok: true, value: text === 'true' };
  if (kind === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? { ok: true, value: parseJson(text.trim()) } : { ok: false, error: 'Type a number.' };
  try {
    return { ok: true, value: parseJson(text) };
  } catch {
    return { ok: false, error: 'Type valid JSON.' };
  }
}

/**
 * A value of any JSON type: a type (text, number, true or false, JSON) and the value, so the
 * common values need no JSON typed. Shows `id`'s label; the type select is named after it.
 */
export function TypedValue({ id, label, value, onChange, aria }: { id: string; label: string; value: unknown; onChange: (value: unknown) => void; aria: object }) {
  const [kind, setKind] = useState(() => kindOf(value));
  const [text, setText] = useState(() => textOf(value, kind));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const shown = valueOf(kind, text);
    if (!shown.ok || prettyJson(shown.value) !== prettyJson(value)) {
      const next = kindOf(value);
      setKind(next);
      setText(textOf(value, next));
      setError(null);
    }
  }, [value]);
  const edit = (nextKind: ValueKind, nextText: string) => {
    setKind(nextKind);
    setText(nextText);
    const parsed = valueOf(nextKind, nextText);
    setError(parsed.ok ? null : parsed.error);
    if (parsed.ok) onChange(parsed.value);
  };
  return (
    <div class="typed-value">
      <select class="input typed-value__kind" aria-label={`Type of ${label}`} value={kind} onChange={(e) => {
        const nextKind = e.currentTarget.value as ValueKind;
        edit(nextKind, nextKind === 'boolean' ? 'true' : nextKind === 'json' ? prettyJson(value ?? null) : kind === 'json' ? '' : text);
      }}>
        {KIND_LABELS.map(([k, text]) => (
          <option key={k} value={k}>
            {text}
          </option>
        ))}
      </select>
      {kind === 'boolean' ? (
        <select {...aria} id={id} class="input" value={text} onChange={(e) => edit(kind, e.currentTarget.value)}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : (
        <input {...aria} id={id} class={kind === 'json' ? 'input input--mono' : 'input'} inputMode={kind === 'number' ? 'decimal' : undefined} value={text} spellcheck={false} onInput={(e) => edit(kind, e.currentTarget.value)} />
      )}
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * An object edited as name and value rows (headers, a body's fields, the attributes a step
 * sets). With `secrets`, each row can take a `{{ secrets.NAME }}` reference from a list.
 */
export function KeyValueEditor(props: { value: unknown; onChange: (value: JsonObject) => void; pointer: string; label: string; noun: string; textOnly?: boolean; hint?: string; secrets?: readonly string[] }) {
  const { pointer, label, noun } = props;
  const object = isObject(props.value) ? props.value : {};
  return (
    <fieldset class="builder__group" data-pointer={pointer}>
      <legend>{label}</legend>
      {props.hint && <p class="hint">{props.hint}</p>}
      {Object.keys(object).length > 0 && (
        <ul class="builder__items">
          {Object.entries(object).map(([name, item], i) => (
            <KeyValueRow key={i} {...props} object={object} name={name} item={item} />
          ))}
        </ul>
      )}
      <AddByName noun={noun} taken={Object.keys(object)} onAdd={(name) => props.onChange({ ...object, [name]: '' })} />
    </fieldset>
  );
}

function KeyValueRow({ object, name, item, onChange, pointer, noun, textOnly, secrets }: { object: JsonObject; name: string; item: unknown; onChange: (value: JsonObject) => void; pointer: string; noun: string; textOnly?: boolean; secrets?: readonly string[] }) {
  const id = useId();
  const at = childPointer(pointer, name);
  const { error, aria } = useFieldProblem(at, `${id}-value`);
  const [secret, setSecret] = useState('');
  const set = (next: unknown) => onChange(withKey(object, name, next));
  return (
    <li class="builder__row" data-pointer={at}>
      <div class="field">
        <label for={`${id}-name`}>Name of {noun} {name}</label>
        <input id={`${id}-name`} class="input" value={name} spellcheck={false} onChange={(e) => onChange(renameKey(object, name, e.currentTarget.value.trim()))} />
      </div>
      <div class="field">
        <label for={`${id}-value`}>Value of {noun} {name}</label>
        {textOnly ? (
          <input {...aria} id={`${id}-value`} class="input" value={typeof item === 'string' ? item : ''} spellcheck={false} onInput={(e) => set(e.currentTarget.value)} />
        ) : (
          <TypedValue id={`${id}-value`} label={`${noun} ${name}`} value={item} onChange={set} aria={aria} />
        )}
        <ProblemText id={`${id}-value`} error={error} />
      </div>
      {secrets && (
        <div class="builder__secret">
          <label for={`${id}-secret`}>Secret for {noun} {name}</label>
          <select id={`${id}-secret`} class="input" value={secret} onChange={(e) => setSecret(e.currentTarget.value)} disabled={secrets.length === 0}>
            <option value="">{secrets.length === 0 ? 'No secrets stored' : 'Choose a secret'}</option>
            {secrets.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <button type="button" class="button button--secondary button--small" disabled={secret === ''} onClick={() => set(`${typeof item === 'string' ? item : ''}{{ secrets.${secret} }}`)}>
            Insert secret into {noun} {name}
          </button>
        </div>
      )}
      <button type="button" class="button button--ghost button--small" onClick={() => onChange(withKey(object, name, undefined))}>
        Remove {noun} {name}
      </button>
    </li>
  );
}

/** A name input and its Add button (a status, an attribute, a header): a name already taken is refused with a message. */
export function AddByName({ noun, taken, onAdd }: { noun: string; taken: readonly string[]; onAdd: (name: string) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setError(`Type the new ${noun}'s name.`);
    if (taken.includes(trimmed)) return setError(`There already is a ${noun} "${trimmed}".`);
    setError(null);
    setName('');
    onAdd(trimmed);
  };
  return (
    <div class="builder__add">
      <div class="field">
        <label for={id}>New {noun} name</label>
        <input
          id={id}
          class="input"
          value={name}
          spellcheck={false}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={error ? true : undefined}
          onInput={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            add();
          }}
        />
        {error && (
          <p class="field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="button" class="button button--secondary button--small" onClick={add}>
        Add {noun}
      </button>
    </div>
  );
}
