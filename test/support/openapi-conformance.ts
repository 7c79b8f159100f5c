/** Reads the served OpenAPI document and checks real answers against it (openapi.e2e-spec.ts). */
import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { InjectResult, RequestOptions, TestApp } from './test-app.js';

export type Json = { [key: string]: any };
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface Operation {
  method: string;
  path: string;
  op: Json;
}

export function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })),
  );
}

/** `:param` (Nest, Fastify) to `{param}` (OpenAPI), and back. */
export const toTemplate = (route: string) => route.replace(/:(\w+)/g, '{$1}');
export const toRoutePattern = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/**
 * Every route Fastify serves, from `printRoutes({commonPrefix: false})`: a tree whose lines
 * are `<indent>├── <segment> (<METHODS>)`, each segment relative to its parent line.
 */
export function servedRoutes(fastify: FastifyInstance): { method: string; url: string }[] {
  const stack: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) routes.push({ method, url });
  }
  return routes;
}

/** The same id for every parameter of a path template. */
export const sameIdEverywhere = (template: string, id: string | number): Record<string, string | number> =>
  Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, id]));

/** Every `$ref` in the document, with where it sits. */
export function refsOf(value: unknown, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refsOf(v, `${at}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => (key === '$ref' && typeof v === 'string' ? [{ at, ref: v }] : refsOf(v, `${at}/${key}`)));
}

/** The value a local `$ref` (`#/a/b`) points to, or undefined. */
export function pointerTarget(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, part) => (node && typeof node === 'object' ? node[part] : undefined), doc);
}

/** Every `schema` object of the paths (parameters, request bodies, responses), with where it sits. */
export function inlineSchemasOf(value: unknown, at = '#'): { at: string; schema: Json }[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => (key === 'schema' ? [{ at: `${at}/schema`, schema: v as Json }] : inlineSchemasOf(v, `${at}/${key}`)));
}

/** JSON Schema 2020-12 validation of values against the document's schemas, in Ajv's strict mode (unknown keywords are errors). */
export class SchemaValidator {
  private readonly ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    // ajv-formats is CommonJS: at run time the namespace's default is the plugin itself.
    (ajvFormats.default as unknown as (ajv: Ajv2020) => void)(this.ajv);
    for (const [name, schema] of Object.entries(doc.components.schemas as Json)) this.ajv.addSchema(localRefs(schema), schemaId(name));
  }

  compile(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) this.compiled.set(key, (validate = this.ajv.compile(localRefs(schema))));
    return validate;
  }

  assertValid(schema: Json, value: unknown, what: string): void {
    const validate = this.compile(schema);
    assert.ok(validate(value), `${what} does not match its documented schema: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
  }
}

const schemaId = (name: string) => `urn:openapi:${name}`;
/** `#/components/schemas/X` resolves against the document; inside Ajv each component is its own schema. */
const localRefs = (schema: unknown): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${schemaId('')}`));

export interface CallOptions extends RequestOptions {
  params?: Record<string, string | number>;
  query?: string;
  /** A signed-in person's session, sent as the dashboard does: the cookie and the service's own Origin. */
  session?: { cookie: string; origin: string };
}

/**
 * Calls an operation by its documented template and checks the answer against the document:
 * its status is documented, its body matches the documented schema (or is empty when none is
 * documented), and on success the request body sent matches the documented request schema.
 */
export class DocumentedApi {
  /** `METHOD template status` of every answer seen. */
  readonly seen = new Set<string>();
  readonly validator: SchemaValidator;

  constructor(private readonly t: TestApp, readonly doc: Json) {
    this.validator = new SchemaValidator(doc);
  }

  async call(method: string, template: string, options: CallOptions = {}): Promise<InjectResult> {
    const url = template.replace(/\{(\w+)\}/g, (_, name: string) => String(options.params?.[name] ?? 1)) + (options.query ?? '');
    const { session, ...request } = options;
    const res = await this.t.request(method.toUpperCase(), url, session ? { ...request, headers: { cookie: session.cookie, origin: session.origin, ...request.headers } } : request);
    this.check(method, template, options, res);
    return res;
  }

  private check(method: string, template: string, options: CallOptions, res: InjectResult): void {
    const what = `${method.toUpperCase()} ${template} → ${res.status}`;
    const op = this.doc.paths[template]?.[method.toLowerCase()];
    assert.ok(op, `${method.toUpperCase()} ${template} is not documented`);
    const documented = op.responses[String(res.status)];
    assert.ok(documented, `${what} is not a documented answer: ${res.text}`);
    this.seen.add(`${method.toUpperCase()} ${template} ${res.status}`);
    const response = documented.$ref ? (pointerTarget(this.doc, documented.$ref) as Json) : documented;
    const [mediaType, content] = Object.entries((response.content ?? {}) as Json)[0] ?? [];
    if (!mediaType) {
      assert.equal(res.text, '', `${what} has a body but none is documented`);
      return;
    }
    // `*/*`: a file served with the type it was stored with (an attachment download).
    if (mediaType !== '*/*') assert.equal(String(res.headers['content-type']).split(';')[0], mediaType, `${what} has another media type than documented`);
    this.validator.assertValid(content.schema, mediaType === 'application/json' ? res.body : res.text, what);
    const requestSchema = op.requestBody?.content?.['application/json']?.schema;
    if (res.status < 300 && requestSchema && options.body !== undefined) this.validator.assertValid(requestSchema, options.body, `the request body of ${what}`);
  }
}

