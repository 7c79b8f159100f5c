import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { InvalidRequestError, type ValidationProblem } from '../errors/app-error.js';
import { isPlainObject } from '../json/json-text.js';
import { pointer } from '../json/json-pointer.js';
import { UnparseableBody } from './json-body-parser.js';

/**
 * Validates request bodies (and query strings) against their class-validator DTO: an exact whitelist of
 * top-level keys (any other key is a 422 before anything happens), then each field's rules.
 * The DTO instance is used for checking only; handlers get the parsed body untouched, so
 * nested values (attributes) are never rebuilt by class-transformer.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => new InvalidRequestError('invalid request body', errors.flatMap((e) => toProblems(e, ''))),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query') return this.validation.transform(value, metadata);
    if (metadata.type !== 'body') return value;
    if (value instanceof UnparseableBody) throw new InvalidRequestError(value.reason);
    const body = value === undefined ? {} : value;
    if (!isPlainObject(body)) throw new InvalidRequestError('request body must be a JSON object');
    return this.validation.transform(body, metadata);
  }
}

function toProblems(error: ValidationError, parent: string): ValidationProblem[] {
  const path = pointer(parent, error.property);
  const own = Object.entries(error.constraints ?? {}).map(([rule, message]) => ({
    path,
    error: rule === 'whitelistValidation' ? `unsupported key "${error.property}"` : message,
  }));
  return [...own, ...(error.children ?? []).flatMap((child) => toProblems(child, path))];
}
