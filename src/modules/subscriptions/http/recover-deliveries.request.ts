import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { isIsoTimestamp } from '../../../shared/http/iso-timestamp.js';

export class RecoverDeliveriesRequest {
  // The same timestamps the case lists take: a form Date cannot read (a week date) is refused here, not by Postgres.
  @ValidateBy({
    name: 'isIsoTimestamp',
    validator: { validate: (value: unknown) => typeof value === 'string' && isIsoTimestamp(value), defaultMessage: () => 'since must be a strict ISO 8601 timestamp' },
  })
  @ApiProperty({ description: 'Deliveries that ended failed at or after this time are sent again; ISO 8601 with its offset (`2026-11-24T08:00:00Z`).', example: '2026-11-24T08:00:00Z' })
  since: string;
}
