import { AppError } from '../../../shared/errors/app-error.js';

/** A send by hand would reach nobody: refused before it takes the manual-send spacing. */
export class DigestUnconfirmedError extends AppError {
  readonly code = 'digest.no_confirmed_recipient';
  constructor() {
    super('no recipient of this digest has confirmed yet: each gets a confirmation email, and the digest goes to those who confirm');
  }
}
