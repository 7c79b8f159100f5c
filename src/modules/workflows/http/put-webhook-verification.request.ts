import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { HMAC_ALGORITHMS, SIGNATURE_ENCODINGS, SIGNATURE_SCHEMES } from '../domain/signature-schemes.js';
import { DEFAULT_TOLERANCE_SECONDS, MAX_TOLERANCE_SECONDS, MAX_VERIFICATION_SECRET_BYTES } from '../domain/webhook-verification.js';

const present = (key: keyof PutWebhookVerificationRequest) => ValidateIf((body: PutWebhookVerificationRequest) => body[key] !== undefined);

/** Each field's own rules; which options a scheme takes is checked next, by the domain (verificationSetting). */
@ApiSchema({ description: 'Only these keys are accepted, and of the options only those of the chosen scheme; anything else is a 422.' })
export class PutWebhookVerificationRequest {
  // Whether it names a registered scheme is checked next (verificationSetting): extensions add names.
  @IsString()
  @ApiProperty({ type: 'string', description: `How the sender signs: ${SIGNATURE_SCHEMES.map((name) => `\`${name}\``).join(', ')} (GitHub, Stripe, Slack, Standard Webhooks, a generic HMAC in a header of your choice), or a scheme an extension registered.` })
  scheme: string;

  @IsString()
  @ValidateBy({
    name: 'verificationSecretSize',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || (value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_VERIFICATION_SECRET_BYTES),
      defaultMessage: () => `secret must be 1 to ${MAX_VERIFICATION_SECRET_BYTES} bytes (UTF-8)`,
    },
  })
  @ApiProperty({
    minLength: 1,
    description: `The signing secret the sender was given, 1 to ${MAX_VERIFICATION_SECRET_BYTES} bytes; for \`standard_webhooks\`, \`whsec_\` followed by the base64 key. Stored encrypted (AES-256-GCM); never shown or logged.`,
  })
  secret: string;

  @present('tolerance_seconds') @IsInt() @Min(1) @Max(MAX_TOLERANCE_SECONDS)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TOLERANCE_SECONDS,
    default: DEFAULT_TOLERANCE_SECONDS,
    description: '`stripe`, `slack`, `standard_webhooks` and the extension schemes that take it only: how far the signed timestamp may be from the service\'s clock, in either direction.',
  })
  tolerance_seconds?: number;

  @present('header') @IsString() @Matches(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, { message: 'header must be an HTTP header name (1 to 100 token characters)' })
  @ApiPropertyOptional({ type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$", description: '`hmac` only, and required there: the request header that carries the signature (any case).' })
  header?: string;

  @present('algorithm') @IsIn(HMAC_ALGORITHMS)
  @ApiPropertyOptional({ enum: HMAC_ALGORITHMS, default: 'sha256', description: '`hmac` only: the HMAC\'s hash function.' })
  algorithm?: string;

  @present('encoding') @IsIn(SIGNATURE_ENCODINGS)
  @ApiPropertyOptional({ enum: SIGNATURE_ENCODINGS, default: 'hex', description: '`hmac` only: how the MAC is written in the header (base64 is the standard alphabet, padded).' })
  encoding?: string;

  @present('prefix') @IsString() @MaxLength(64)
  @ApiPropertyOptional({ type: 'string', maxLength: 64, default: '', description: '`hmac` only: text before the encoded MAC in the header, such as `sha256=`.' })
  prefix?: string;
}
