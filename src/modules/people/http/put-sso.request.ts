import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { EMAIL_DOMAIN_PATTERN, MAX_SSO_EMAIL_DOMAINS, SSO_DEFAULT_ROLES, type SsoDefaultRole } from '../domain/sso.js';

export class PutSsoRequest {
  @IsString() @MaxLength(2048)
  @ApiProperty({ type: 'string', maxLength: 2048, description: 'The provider\'s issuer identifier, exactly as its discovery document (`/.well-known/openid-configuration` below it) states it: an `https` URL.' })
  issuer: string;

  @IsString() @MinLength(1) @MaxLength(255)
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 255, description: 'The client id the provider gave this service.' })
  client_id: string;

  @IsString() @MinLength(1) @MaxLength(1024)
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 1024, description: 'The client secret (sent to the token endpoint with HTTP Basic). Stored encrypted; never shown or logged.' })
  client_secret: string;

  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_SSO_EMAIL_DOMAINS) @IsString({ each: true }) @Matches(EMAIL_DOMAIN_PATTERN, { each: true, message: 'each of email_domains must be a lower-case domain name' })
  @ApiProperty({ type: 'string', isArray: true, minItems: 1, maxItems: MAX_SSO_EMAIL_DOMAINS, description: 'Lower-case domains (`example.com`): only a verified email address of one of these signs in.' })
  email_domains: string[];

  @IsIn(SSO_DEFAULT_ROLES)
  @ApiProperty({ enum: SSO_DEFAULT_ROLES, description: 'The role of a person who signs in for the first time (never `owner`).' })
  default_role: SsoDefaultRole;

  @IsBoolean()
  @ApiProperty({ type: 'boolean', description: '`true`: sign-in links are refused for the organization\'s users; they sign in here only. Turning it on ends their sessions signed in by email link, but the caller\'s.' })
  required: boolean;
}
