import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidRequestError } from '../../shared/errors/app-error.js';

/** What `{{ secrets.NAME }}` templates accept, so every stored secret can be used. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

@Injectable()
export class SecretNamePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!SECRET_NAME.test(value)) throw new InvalidRequestError('invalid secret name', [{ path: '/name', error: 'must match [A-Z][A-Z0-9_]{0,63}' }]);
    return value;
  }
}
