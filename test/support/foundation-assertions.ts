/**
 * Assertions shared by the service-foundation specs (admin API, definition validation, HTTP
 * errors, secrets): response shapes, timestamps, and error bodies that never leak internals.
 */
import assert from 'node:assert/strict';
import type { InjectResult } from './test-app.js';

/** ISO 8601 UTC, as `Date.prototype.toISOString` writes it. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** A token secret: its prefix, then at least 43 URL-safe characters (32 random bytes). */
export function secretPattern(prefix: 'adm_' | 'api_'): RegExp {
  return new RegExp(`^${prefix}[A-Za-z0-9_-]{43,}$`);
}

export function assertIsoUtc(value: unknown, label = 'timestamp'): void {
  assert.equal(typeof value, 'string', `${label} is a string`);
  assert.match(value as string, ISO_UTC, `${label} is ISO 8601 UTC`);
  assert.ok(!Number.isNaN(Date.parse(value as string)), `${label} is a real date`);
}

export function assertPositiveInteger(value: unknown, label = 'id'): void {
  assert.ok(Number.isSafeInteger(value) && (value as number) > 0, `${label} is a positive integer, got ${JSON.stringify(value)}`);
}

/** The object has exactly these keys (in any order). */
export function assertKeys(value: unknown, keys: string[], label = 'object'): void {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), `${label} is an object`);
  assert.deepEqual(Object.keys(value).sort(), [...keys].sort(), `${label} keys`);
}

/** Stack frames (`    at fn (file:1:2)`), file positions and dependency paths never reach a client. */
export function assertNoInternals(text: string): void {
  assert.doesNotMatch(text, /^\s*at \S/m, 'no stack frame');
  assert.doesNotMatch(text, /\bat \S+ \(/, 'no stack frame');
  assert.doesNotMatch(text, /\.[jt]s:\d+:\d+/, 'no source position');
  assert.ok(!text.includes('node_modules'), 'no node_modules path');
  assert.ok(!/"stack"\s*:/.test(text), 'no stack field');
}

/**
 * An error answer: this status, a JSON content type, a body with a non-empty string `error`
 * (plus only the `extraKeys` given), and nothing internal. Returns the parsed body.
 */
export function assertJsonError(res: InjectResult, status: number, extraKeys: string[] = []): Record<string, any> {
  assert.equal(res.status, status, `status ${res.status}: ${res.text}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, 'error content type');
  assertKeys(res.body, ['error', ...extraKeys], 'error body');
  assert.equal(typeof res.body.error, 'string');
  assert.notEqual(res.body.error.trim(), '', 'error message is not empty');
  assertNoInternals(res.text);
  return res.body;
}

/** A 422 carrying `validation_errors`; returns their paths in order. */
export function assertValidationError(res: InjectResult, error?: string): string[] {
  const body = assertJsonError(res, 422, ['validation_errors']);
  if (error !== undefined) assert.equal(body.error, error);
  assert.ok(Array.isArray(body.validation_errors) && body.validation_errors.length > 0, 'validation_errors is a non-empty array');
  for (const problem of body.validation_errors) {
    assertKeys(problem, ['path', 'error'], 'validation problem');
    assert.equal(typeof problem.path, 'string');
    assert.ok(typeof problem.error === 'string' && problem.error.length > 0, 'problem message is a non-empty string');
  }
  return body.validation_errors.map((p: { path: string }) => p.path);
}
