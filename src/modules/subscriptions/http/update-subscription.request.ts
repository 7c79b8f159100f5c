import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { CreateSubscriptionRequest } from './create-subscription.request.js';

/**
 * Any of the keys of a new subscription, validated the same way (the checks are inherited).
 * `workflow_ids: null` goes back to every workflow; `url` and `events` cannot be null, and an
 * empty body changes nothing (both 422, from the service).
 */
export class UpdateSubscriptionRequest extends PartialType(CreateSubscriptionRequest) {
  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    nullable: true,
    description: 'Only these workflows\' cases; `null`: every workflow of the organization again.',
  })
  override workflow_ids?: number[];
}
