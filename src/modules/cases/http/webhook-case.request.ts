import { AppError, InvalidRequestError } from '../../../shared/errors/app-error.js';
import { readJsonBody } from '../../../shared/http/json-body-parser.js';
import { isPlainObject } from '../../../shared/json/json-text.js';

export const MAX_TOP_LEVEL_KEYS = 1000;

export class TooManyKeysError extends AppError {
  readonly code = 'request.too_many_keys';
  constructor() {
    super(`the JSON object has more than ${MAX_TOP_LEVEL_KEYS} top-level keys`);
  }
}

/** A webhook's body: any JSON object, whose top-level keys are the case's attributes, exactly as posted. */
export function webhookAttributes(body: unknown): { value: Record<string, unknown>; text: string } {
  return objectAttributes(readJsonBody(body), 'the request body must be a JSON object');
}

/** A JSON object read with its exact text as a case's attributes (a webhook's body, what a case source sends). */
export function objectAttributes(parsed: { value: unknown; text: string } | undefined, notAnObject: string): { value: Record<string, unknown>; text: string } {
  if (!parsed || !isPlainObject(parsed.value)) throw new InvalidRequestError(notAnObject);
  if (Object.keys(parsed.value).length > MAX_TOP_LEVEL_KEYS) throw new TooManyKeysError();
  return { value: parsed.value, text: parsed.text };
}
