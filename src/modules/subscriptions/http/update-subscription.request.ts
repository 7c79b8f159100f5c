import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { CLEARABLE_WORKFLOW_IDS } from '../../../shared/http/openapi-schema.js';
import { CreateSubscriptionRequest } from './create-subscription.request.js';

/**
 * Any of the keys of a new subscription, validated the same way (the checks are inherited).
 * `workflow_ids: null` goes back to every workflow; `url` and `events` cannot be null, and an
 * empty body changes nothing (both 422, from the service).
 */
export class UpdateSubscriptionRequest extends PartialType(CreateSubscriptionRequest) {
  @ApiPropertyOptional(CLEARABLE_WORKFLOW_IDS)
  override workflow_ids?: number[];
}
