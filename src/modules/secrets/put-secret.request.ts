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
  value: string;
}
