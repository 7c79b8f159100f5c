import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import type { AttributeDeclaration, WorkflowDefinition } from './workflow-definition.js';

const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, allowUnionTypes: true });
// ajv-formats is CommonJS: at run time the namespace's default is the plugin itself.
const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;
addFormats(ajv, ['email', 'uri', 'date-time', 'date']);

/** Checks a case's attributes against one published workflow version. Compiled once per version. */
export class AttributeSchema {
  private readonly validate: ValidateFunction;

  constructor(definition: Pick<WorkflowDefinition, 'attributes' | 'sensitive_data'>) {
    this.validate = ajv.compile(toJsonSchema(definition));
  }

  /** Problems with JSON Pointer paths; empty when the attributes are valid. */
  check(attributes: Record<string, unknown>): ValidationProblem[] {
    if (this.validate(attributes)) return [];
    return (this.validate.errors ?? []).map(toProblem);
  }
}

/**
 * Attribute declarations as JSON Schema: `required` means present and not null; an attribute
 * that is not required also accepts null; undeclared keys are kept unless the workflow
 * handles sensitive data.
 */
export function toJsonSchema(definition: Pick<WorkflowDefinition, 'attributes' | 'sensitive_data'>): Record<string, unknown> {
  const entries = Object.entries(definition.attributes);
  return {
    type: 'object',
    required: entries.filter(([, d]) => d.required === true).map(([name]) => name),
    properties: Object.fromEntries(entries.map(([name, declaration]) => [name, propertySchema(declaration)])),
    additionalProperties: !definition.sensitive_data,
  };
}

function propertySchema(declaration: AttributeDeclaration): Record<string, unknown> {
  const required = declaration.required === true;
  const schema: Record<string, unknown> = {};
  if (declaration.type !== 'any') schema.type = required ? declaration.type : [declaration.type, 'null'];
  else if (required) schema.not = { type: 'null' };
  if (declaration.enum) schema.enum = required ? declaration.enum : [...declaration.enum, null];
  if (declaration.format) schema.format = declaration.format;
  return schema;
}

function toProblem(error: ErrorObject): ValidationProblem {
  switch (error.keyword) {
    case 'required':
      return { path: error.instancePath, error: `missing required attribute "${(error.params as { missingProperty: string }).missingProperty}"` };
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      return { path: pointer(error.instancePath, key), error: `undeclared attribute "${key}": this workflow handles sensitive data and accepts declared attributes only` };
    }
    case 'type':
      return { path: error.instancePath, error: `must be of type ${String((error.params as { type: string | string[] }).type).replace(',null', '')}` };
    case 'not':
      return { path: error.instancePath, error: 'must not be null' };
    case 'enum':
      return { path: error.instancePath, error: oneOf((error.params as { allowedValues: unknown[] }).allowedValues) };
    default:
      return { path: error.instancePath, error: error.message ?? 'is invalid' };
  }
}

/** "must be one of: a, b, c, or empty", as a person would write it (null, allowed when not required, is "empty"). */
function oneOf(allowed: unknown[]): string {
  const values = allowed.filter((value) => value !== null).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  const empty = values.length < allowed.length ? ['empty'] : [];
  const all = [...values, ...empty];
  if (all.length === 1) return `must be ${all[0]}`;
  if (all.length === 2) return `must be ${all[0]} or ${all[1]}`;
  return `must be one of: ${all.slice(0, -1).join(', ')}, or ${all.at(-1)}`;
}
