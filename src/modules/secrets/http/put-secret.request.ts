import { ApiProperty } from '@nestjs/swagger';
import { IsString, ValidateBy } from 'class-validator';

export const MAX_SECRET_BYTES = 8192;

export class PutSecretRequest {
  @IsString()
  @ValidateBy({
    name: 'secretSize',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || (value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_SECRET_BYTES),
      defaultMessage: () => `value must be 1 to ${MAX_SECRET_BYTES} bytes (UTF-8)`,
    },
  })
  @ApiProperty({ minLength: 1, description: 'The value: 1 to 8,192 bytes of UTF-8. Stored encrypted (AES-256-GCM); never shown, logged or written to a case, the timeline or an error.' })
  value: string;
}
