import { useId } from 'preact/hooks';
import { prettyJson, parseJson } from '../json.ts';
import { childPointer, PointerField, ProblemText, useFieldProblem } from './problems.tsx';
import { AddByName, isObject, renameKey, withKey, type JsonObject } from './schema-form.tsx';

const ATTRIBUTE_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'any'];
const ATTRIBUTE_FORMATS = ['email', 'uri', 'date-time', 'date'];

/** The Builder's attribute schema: each attribute's type, whether it is required, its allowed values and format. */
export function AttributesSection({ attributes, set }: { attributes: JsonObject; set: (key: string, value: unknown) => void }) {
  const id = useId();
  const change = (next: JsonObject) => set('attributes', next);
  return (
    <section class="card stack" aria-labelledby={`${id}-title`} data-pointer="/attributes">
      <h2 id={`${id}-title`} class="card__title">
        Attribute schema
      </h2>
      {Object.entries(attributes).map(([name, declaration], i) => (
        <AttributeFields key={i} name={name} declaration={isObject(declaration) ? declaration : {}} onChange={(next) => change(withKey(attributes, name, next))} onRename={(to) => change(renameKey(attributes, name, to))} onRemove={() => change(withKey(attributes, name, undefined))} />
      ))}
      <AddByName noun="attribute" taken={Object.keys(attributes)} onAdd={(name) => change({ ...attributes, [name]: { type: 'string' } })} />
    </section>
  );
}

function AttributeFields({ name, declaration, onChange, onRename, onRemove }: { name: string; declaration: JsonObject; onChange: (declaration: JsonObject) => void; onRename: (name: string) => void; onRemove: () => void }) {
  const id = useId();
  const pointer = childPointer('/attributes', name);
  const type = typeof declaration.type === 'string' ? declaration.type : 'string';
  const set = (key: string, value: unknown) => onChange(withKey(declaration, key, value));
  const required = useFieldProblem(childPointer(pointer, 'required'), `${id}-required`);
  return (
    <fieldset class="builder__group builder__attribute" data-pointer={pointer}>
      <legend>Attribute {name}</legend>
      <ProblemText id={id} error={useFieldProblem(pointer, id).error} />
      <div class="field">
        <label for={`${id}-name`}>Name of attribute {name}</label>
        <input id={`${id}-name`} class="input input--mono" value={name} spellcheck={false} onChange={(e) => onRename(e.currentTarget.value.trim())} />
      </div>
      <PointerField id={`${id}-type`} pointer={childPointer(pointer, 'type')} label={`Type of attribute ${name}`}>
        {(aria) => (
          <select {...aria} id={`${id}-type`} class="input" value={type} onChange={(e) => onChange(e.currentTarget.value === 'string' ? withKey(declaration, 'type', 'string') : withKey(withKey(declaration, 'type', e.currentTarget.value), 'format', undefined))}>
            {ATTRIBUTE_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </PointerField>
      <div class="field" data-pointer={childPointer(pointer, 'required')}>
        <label class="checkbox">
          <input {...required.aria} id={`${id}-required`} type="checkbox" checked={declaration.required === true} onChange={(e) => set('required', e.currentTarget.checked ? true : undefined)} />
          Attribute {name} is required
        </label>
        <ProblemText id={`${id}-required`} error={required.error} />
      </div>
      <EnumField id={`${id}-enum`} pointer={childPointer(pointer, 'enum')} name={name} type={type} value={declaration.enum} onChange={(next) => set('enum', next)} />
      {type === 'string' && (
        <PointerField id={`${id}-format`} pointer={childPointer(pointer, 'format')} label={`Format of attribute ${name}`}>
          {(aria) => (
            <select {...aria} id={`${id}-format`} class="input" value={typeof declaration.format === 'string' ? declaration.format : ''} onChange={(e) => set('format', e.currentTarget.value || undefined)}>
              <option value="">No format</option>
              {ATTRIBUTE_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          )}
        </PointerField>
      )}
      <button type="button" class="button button--ghost button--small" onClick={onRemove}>
        Remove attribute {name}
      </button>
    </fieldset>
  );
}

/** An attribute's allowed values as a list: one field per value (a number for number types), added and removed one by one. */
function EnumField({ id, pointer, name, type, value, onChange }: { id: string; pointer: string; name: string; type: string; value: unknown; onChange: (value: unknown[] | undefined) => void }) {
  const values = Array.isArray(value) ? value : [];
  const numeric = type === 'integer' || type === 'number';
  const parse = (text: string): unknown => (numeric && text.trim() !== '' && Number.isFinite(Number(text)) ? parseJson(text.trim()) : type === 'boolean' && (text === 'true' || text === 'false') ? text === 'true' : text);
  const change = (next: unknown[]) => onChange(next.length ? next : undefined);
  const { error } = useFieldProblem(pointer, id);
  return (
    <fieldset class="builder__group" data-pointer={pointer}>
      <legend>Allowed values of attribute {name}</legend>
      <ProblemText id={id} error={error} />
      {values.length === 0 ? (
        <p class="hint">Any value of the type is allowed.</p>
      ) : (
        <ol class="builder__items">
          {values.map((item, i) => (
            <li key={i} class="builder__row">
              <PointerField id={`${id}-${i}`} pointer={childPointer(pointer, i)} label={`Allowed value ${i + 1} of attribute ${name}`}>
                {(aria) => (
                  <input
                    {...aria}
                    id={`${id}-${i}`}
                    class="input"
                    inputMode={numeric ? 'decimal' : undefined}
                    value={typeof item === 'string' ? item : prettyJson(item)}
                    onInput={(e) => change(values.map((old, j) => (j === i ? parse(e.currentTarget.value) : old)))}
                  />
                )}
              </PointerField>
              <button type="button" class="button button--ghost button--small" onClick={() => change(values.filter((_, j) => j !== i))}>
                Remove allowed value {i + 1} of attribute {name}
              </button>
            </li>
          ))}
        </ol>
      )}
      <button type="button" class="button button--secondary button--small" onClick={() => change([...values, numeric ? 0 : ''])}>
        Add an allowed value to attribute {name}
      </button>
    </fieldset>
  );
}
