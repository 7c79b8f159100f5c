import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { RequiresOperatorToken } from '../../tokens/http/operator-token.check.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { SsoConfigurationsService } from '../application/sso-configurations.service.js';
import { PutSsoRequest } from './put-sso.request.js';

const ssoAnswer = { status: 200 as const, description: 'The setting, without the client secret.', schema: wrapped('sso', schemaRef('SsoConfiguration')) };
const NO_SSO = 'The organization has no single sign-on.';

/** Single sign-on with OpenID Connect (people.md, section 2): the owner's setting. */
@Controller('api/admin/v1/sso')
@RequiresRole('owner')
@ApiTags('People')
@ApiSecurity('adminToken')
export class SsoController {
  constructor(private readonly sso: SsoConfigurationsService) {}

  @Put()
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'putSso',
    summary: 'Set single sign-on',
    description: [
      'Sets (or replaces) the organization\'s OpenID provider. People sign in at `/auth/sso?organization=<id>` (or by typing an address of a listed domain on the sign-in page, once the domain is verified: `verifySsoDomains`) with the authorization code flow, PKCE, state and nonce; register `<PUBLIC_BASE_URL>/auth/sso/callback` as the redirect URI at the provider. The ID token\'s signature, issuer, audience and expiry are verified against the provider\'s discovery document and keys; its `email` must be verified (`email_verified`) and of a listed domain. A person with no user yet becomes one with `default_role`.',
      'The client secret is stored encrypted and never shown, logged or audited (the audit entry says whether it changed). A change acts at once on this instance and within 1 s on every other one.',
    ],
    success: ssoAnswer,
    errors: { 422: 'Nothing was stored: an issuer that is not an `https` URL (or has a query, fragment or credentials), an empty `client_id` or `client_secret`, `email_domains` empty, over 50 or not lower-case domain names, a `default_role` other than `viewer`, `editor`, `admin`, a `required` that is not a boolean, an unsupported key, or a body that is not a valid JSON object.', 503: CHANGE_NOT_SAVED },
  })
  async put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: PutSsoRequest) {
    const input = { issuer: body.issuer, clientId: body.client_id, clientSecret: body.client_secret, emailDomains: body.email_domains, defaultRole: body.default_role, required: body.required };
    return { sso: await this.sso.put(by, caller.organizationId, input) };
  }

  @Post('verify_domains')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'verifySsoDomains',
    summary: 'Verify single sign-on email domains',
    description: [
      'Looks up the DNS TXT record of every listed domain not verified yet (`domain_verifications[].record_name`) and marks those whose record says `record_value` as verified, audited as `sso.domains_verified`. Only a verified domain sends a person who types an address of it on the sign-in page to this organization\'s provider: otherwise any organization could list a domain it does not own and collect its people\'s sign-ins. Listing a domain alone still lets a verified email of it sign in at `/auth/sso?organization=<id>`.',
      `A domain whose record is missing, or whose lookup failed, stays unverified: check again once DNS has the record. A domain removed from \`email_domains\` loses its verification. ${BODY_IGNORED}`,
    ],
    success: ssoAnswer,
    errors: { 404: NO_SSO, 503: CHANGE_NOT_SAVED },
  })
  async verifyDomains(@Principal() caller: Caller, @ChangeAuthor() by: Author) {
    return { sso: await this.sso.verifyDomains(by, caller.organizationId) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'getSso',
    summary: 'Get single sign-on',
    description: 'The organization\'s OpenID provider setting; never the client secret.',
    success: ssoAnswer,
    errors: { 404: NO_SSO },
  })
  async get(@Principal() caller: Caller) {
    return { sso: await this.sso.get(caller.organizationId) };
  }

  @Delete()
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteSso',
    summary: 'Remove single sign-on',
    description: `The organization's people sign in by email link again; their users and sessions stay. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: NO_SSO, 503: CHANGE_NOT_SAVED },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author) {
    await this.sso.delete(by, caller.organizationId);
  }
}

/**
 * The way back in when an organization requires single sign-on and its provider is gone or
 * misconfigured: its owners, refused email links, could not sign in to fix it, and admin tokens
 * may not touch single sign-on. The deployment's operator turns it off for them.
 */
@Controller('api/operator/v1/organizations')
@RequiresOperatorToken()
@ApiTags('Operator')
@ApiSecurity('operatorToken')
export class OperatorSsoController {
  constructor(private readonly sso: SsoConfigurationsService) {}

  @Delete(':organizationId/sso')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteOrganizationSso',
    summary: 'Turn off an organization\'s single sign-on',
    description: `For an organization whose people can no longer sign in at its provider (with \`required: true\`, owners included): single sign-on is removed, as an owner would (\`deleteSso\`), audited with the operator as the actor, and its people sign in by email link again at once on every instance. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Removed; no body.' },
    errors: { 404: 'The operator API is disabled (no `OPERATOR_TOKEN`), or the organization does not exist or has no single sign-on.', 503: CHANGE_NOT_SAVED },
  })
  async delete(@ChangeAuthor() by: Author, @Param('organizationId', new IdParamPipe('organization')) organizationId: number) {
    await this.sso.delete(by, organizationId);
  }
}
