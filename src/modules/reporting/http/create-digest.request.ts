import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, isEmail, Max, Min, ValidateBy } from 'class-validator';
import { isWellFormedText } from '../../../shared/http/well-formed-text.js';
import { MAX_RECIPIENTS } from '../domain/digest.js';

/** An email address; isEmail throws on an unpaired surrogate, so that is checked first. */
/**
 * A plain mailbox: no quoted local part, no space or control character anywhere. isEmail accepts
 * `"a\r\nb"@x.example`, which the relay refuses on every attempt, so a digest would fail forever.
 */
const PLAIN_MAILBOX = /^[^\s"<>(),;:\\@\u0000-\u001f\u007f]+@[^\s"<>(),;:\\@\u0000-\u001f\u007f]+$/;

function IsRecipient(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRecipient',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.length <= 254 && isWellFormedText(value) && PLAIN_MAILBOX.test(value) && isEmail(value, { require_tld: false }),
        defaultMessage: () => 'each recipient must be an email address',
      },
    },
    { each: true },
  );
}

export class CreateDigestRequest {
  @IsIn(['daily', 'weekly'])
  @ApiProperty({ enum: ['daily', 'weekly'], description: 'A daily digest covers the 24 hours up to `hour_utc`; a weekly one the 7 days up to `hour_utc` on `weekday`.' })
  schedule: 'daily' | 'weekly';

  @IsInt() @Min(0) @Max(23)
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 23, description: 'The UTC hour each period ends and its digest is sent.' })
  hour_utc: number;

  @IsOptional() @IsInt() @Min(1) @Max(7)
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 7, description: 'ISO weekday the weekly period ends on, 1 (Monday) to 7 (Sunday). Required for weekly digests, refused for daily ones.' })
  weekday?: number;

  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_RECIPIENTS) @ArrayUnique() @IsRecipient()
  @ApiProperty({ type: 'string', isArray: true, format: 'email', minItems: 1, maxItems: MAX_RECIPIENTS, description: 'Who gets the digest.' })
  recipients: string[];

  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(100) @ArrayUnique() @IsInt({ each: true }) @Min(1, { each: true }) @Max(Number.MAX_SAFE_INTEGER, { each: true })
  @ApiPropertyOptional({ type: 'integer', isArray: true, minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only these workflows\' cases; all of the organization\'s when absent.' })
  workflow_ids?: number[];
}
