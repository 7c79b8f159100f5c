import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';

/** What `{{ secrets.NAME }}` templates accept, so every stored secret can be used. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * A secret name in the path. Creating one under a malformed name is a 422; any other use of a
 * malformed name names nothing, so it is a 404 (as malformed ids are).
 */
@Injectable()
export class SecretNamePipe implements PipeTransform<string, string> {
  constructor(private readonly creating: boolean) {}

  transform(value: string): string {
    if (SECRET_NAME.test(value)) return value;
    if (this.creating) throw new InvalidRequestError('invalid secret name: it must match [A-Z][A-Z0-9_]{0,63}');
    throw new NotFoundError('secret');
  }
}
