import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { CLEARABLE_WORKFLOW_IDS } from '../../../shared/http/openapi-schema.js';
import { CreateDigestRequest } from './create-digest.request.js';

/**
 * Any of the keys of a new digest, validated the same way (the checks are inherited).
 * `weekday: null` and `workflow_ids: null` clear them; `schedule`, `hour_utc` and `recipients`
 * cannot be null, and an empty body changes nothing (both 422, from the service).
 */
export class UpdateDigestRequest extends PartialType(CreateDigestRequest) {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 7,
    nullable: true,
    description: 'ISO weekday the weekly period ends on, 1 (Monday) to 7 (Sunday). Required when the digest becomes weekly; left out when it becomes daily, it is dropped.',
  })
  override weekday?: number;

  @ApiPropertyOptional(CLEARABLE_WORKFLOW_IDS)
  override workflow_ids?: number[];
}
