import { AppError } from '../../../shared/errors/app-error.js';

export class SubscriptionDisabledError extends AppError {
  readonly code = 'subscription.disabled';
  constructor() {
    super('the subscription is disabled: enable it first');
  }
}
