/**
 * Small builders for the OpenAPI document, shared by the controllers' @ApiEndpoint decorators and
 * the shared components (src/modules/api-docs), so each schema, response and parameter is
 * written once and referenced everywhere else.
 *
 * Schemas are plain JSON Schema 2020-12 objects (what OpenAPI 3.1 uses): `const`, type arrays
 * such as `["string", "null"]` and numeric `exclusiveMinimum` are outside the 3.0-era
 * `SchemaObject` type of @nestjs/swagger, so schemas are typed loosely here and the document is
 * checked as a whole by test/e2e/openapi.e2e-spec.ts (every `$ref` resolves, every schema
 * compiles in strict mode, real responses validate against them).
 */
export type Schema = { [keyword: string]: unknown };

/** The rule for numbers in stored JSON (src/shared/json/json-numbers.ts), stated wherever attributes come in. */
export const NUMBER_RULE =
  'Numbers: Postgres stores a JSON number exactly and returns it in plain decimal form (no exponent), so a number is accepted only when that form is at most 40 characters long, or no longer than the number as sent. Long mantissas and every int64 or double a normal sender writes pass (`6.02e23`, `1e-30`, `-0`, a 200-digit integer); `1e41`, `5e-324` and `1.7976931348623157e308` are refused with 422 `attributes_validation_failed` at the number\'s JSON Pointer (`number is too large to store exactly: at most 40 characters written out without an exponent`).';

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string, description?: string): Schema => ({
  $ref: `#/components/responses/${name}`,
  ...(description ? { description } : {}),
});
export const parameterRef = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });

/** A closed object: exactly these properties, all required unless `optional` names them. */
export function object(properties: Record<string, Schema>, optional: string[] = [], description?: string): Schema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  };
}

/** `{"<key>": <schema>}`, the one-key wrapper every resource travels in. */
export const wrapped = (key: string, schema: Schema): Schema => object({ [key]: schema });
export const listOf = (key: string, schemaName: string): Schema => wrapped(key, { type: 'array', items: schemaRef(schemaName) });
/** One page of a list paged by cursor: `{"<key>": [...], "next_cursor": ...}`. */
export const pageOf = (key: string, schemaName: string): Schema => object({
  [key]: { type: 'array', items: schemaRef(schemaName) },
  next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' },
});

export const jsonContent = (schema: Schema): Record<string, { schema: Schema }> => ({ 'application/json': { schema } });

export const resourceId = (description: string): Schema => ({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });
/** `workflow_ids` of a PATCH (subscriptions, digests): null clears the restriction. */
export const CLEARABLE_WORKFLOW_IDS = {
  type: 'integer',
  isArray: true,
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  nullable: true,
  description: 'Only these workflows\' cases; `null`: every workflow of the organization again.',
} as const;
export const timestamp = (description: string): Schema => ({ type: 'string', format: 'date-time', description: `${description} (ISO 8601, UTC)` });
