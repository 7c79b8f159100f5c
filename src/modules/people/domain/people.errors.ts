import { InvalidRequestError } from '../../../shared/errors/app-error.js';

/** An organization always keeps an owner: the last one is neither demoted nor deleted. */
export class LastOwnerError extends InvalidRequestError {
  constructor() {
    super('the organization\'s last owner cannot be demoted or deleted');
  }
}
