import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { InvalidRequestError, type ValidationProblem } from '../errors/app-error.js';
import { isPlainObject } from '../json/json-text.js';
import { pointer } from '../json/json-pointer.js';
import { readJsonBody } from './json-body-parser.js';

/**
 * Validates request bodies (and query strings) against their class-validator DTO: an exact whitelist of
 * top-level keys (any other key is a 422 before anything happens), then each field's rules.
 * Handlers get the parsed body untouched: ValidationPipe only checks a shallow copy.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly bodyValidation = validationPipe('invalid request body');
  private readonly queryValidation = validationPipe('invalid query string');

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && isPlainObject(value)) {
      refuseReservedKeys(value, '', 'invalid query string');
      await this.queryValidation.transform(shallowCopy(value), metadata);
      return value;
    }
    if (metadata.type !== 'body') return value;
    const parsed = readJsonBody(value);
    const body = parsed === undefined ? {} : parsed.value;
    if (!isPlainObject(body)) throw new InvalidRequestError('request body must be a JSON object');
    refuseReservedKeys(body, '', 'invalid request body');
    await this.bodyValidation.transform(shallowCopy(body), metadata);
    return body;
  }
}

/**
 * Refuses, as unsupported keys, the keys of `object` that name the machinery of a JavaScript
 * object, which no request class declares: `__proto__` and `constructor`, which ValidationPipe
 * deletes in place at every depth (so its whitelist would not see them), `prototype`, and every
 * other member of Object.prototype (`toString`, `valueOf`, ...), which class-transformer sets on
 * the request class's instance, where the validation then calls it (a 500 otherwise). `at` is the
 * JSON pointer of `object` in the request.
 */
export function refuseReservedKeys(object: Record<string, unknown>, at: string, message: string): void {
  const reserved = Object.keys(object).filter((key) => key === 'prototype' || key in Object.prototype);
  if (reserved.length) throw new InvalidRequestError(message, reserved.map((key) => ({ path: pointer(at, key), error: `unsupported key "${key}"` })));
}

function validationPipe(message: string): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => new InvalidRequestError(message, errors.flatMap((e) => toProblems(e, ''))),
  });
}

/**
 * What ValidationPipe gets to see: the top-level keys, and the items of top-level arrays,
 * with anything nested deeper emptied. DTOs check top-level fields and lists of scalars only
 * (nested values such as attributes have their own schema), and ValidationPipe deletes
 * `__proto__` and `constructor` keys in place at every depth, which must never happen to the
 * request's data.
 */
function shallowCopy(body: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(body)) copy[key] = Array.isArray(item) ? item.map(emptied) : emptied(item);
  return copy;
}

/** Objects and arrays become empty ones of the same kind; scalars stay as they are. */
function emptied(value: unknown): unknown {
  return Array.isArray(value) ? [] : isPlainObject(value) ? {} : value;
}

function toProblems(error: ValidationError, parent: string): ValidationProblem[] {
  const path = pointer(parent, error.property);
  const own = Object.entries(error.constraints ?? {}).map(([rule, message]) => ({
    path,
    error: rule === 'whitelistValidation' ? `unsupported key "${error.property}"` : message,
  }));
  return [...own, ...(error.children ?? []).flatMap((child) => toProblems(child, path))];
}
