import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * @nestjs/swagger writes OpenAPI 3.0 schemas; the document is 3.1, whose schemas are JSON
 * Schema 2020-12: `nullable` becomes a `null` in the type list, and `example` becomes `examples`.
 * Hand-written schemas already use 2020-12 keywords (const, type arrays) and pass unchanged.
 */
export function toOpenApi31(document: object): OpenAPIObject {
  return { ...(toJsonSchema2020(document) as object), openapi: '3.1.0' } as OpenAPIObject;
}

function toJsonSchema2020(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema2020);
  if (!value || typeof value !== 'object') return value;
  const { nullable, example, ...rest } = value as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, toJsonSchema2020(item)]));
  if (nullable === true && typeof converted.type === 'string') converted.type = [converted.type, 'null'];
  if (example !== undefined) converted.examples = [example];
  return converted;
}
