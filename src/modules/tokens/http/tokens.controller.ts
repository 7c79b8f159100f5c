import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { CreateTokenRequest } from './create-token.request.js';
import type { Principal as Caller } from '../domain/principal.js';
import { Principal } from './principal.decorator.js';
import { TokensService } from '../application/tokens.service.js';

@Controller('api/admin/v1/tokens')
@RequiresRole('admin')
@ApiTags('Tokens')
@ApiSecurity('adminToken')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createToken',
    summary: 'Create an API or admin token',
    description: 'The secret (`api_...` for scope `api`, `adm_...` for scope `admin`) is in this answer only: the service keeps a hash. A token of one scope never works where the other is required.',
    success: { status: 201, description: 'The token and its secret.', schema: schemaRef('CreatedToken') },
    errors: { 422: '`name` missing or not 1 to 200 characters, `scope` not `api` or `admin`, an unsupported key, or a body that is not a valid JSON object. Or the organization already has as many tokens (deleted ones not counted) as `MAX_TOKENS_PER_ORGANIZATION` allows (`cap` and `limit` name it).' },
  })
  create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: CreateTokenRequest) {
    return this.tokens.create(by, caller.organizationId, body.name, body.scope);
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listTokens',
    summary: 'List tokens',
    description: 'The organization\'s live tokens, oldest first; never a secret. Deleted tokens are not listed.',
    success: { status: 200, description: 'The tokens.', schema: listOf('tokens', 'Token') },
  })
  async list(@Principal() caller: Caller) {
    return { tokens: await this.tokens.list(caller.organizationId) };
  }

  @Delete(':tokenId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteToken',
    summary: 'Delete a token',
    description: `The token is refused (401) from then on: at once on this instance, within 1 s on every other one. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: 'The token does not exist, belongs to another organization, or was already deleted.', 503: CHANGE_NOT_SAVED },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Param('tokenId', new IdParamPipe('token')) tokenId: number) {
    await this.tokens.delete(by, caller.organizationId, tokenId);
  }
}
