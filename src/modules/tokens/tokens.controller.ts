import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { IdParamPipe } from '../../shared/http/id-param.pipe.js';
import { RequiresToken } from './bearer-token.guard.js';
import { CreateTokenRequest } from './create-token.request.js';
import type { Principal as Caller } from './principal.js';
import { Principal } from './principal.decorator.js';
import { TokensService } from './tokens.service.js';

@Controller('api/admin/v1/tokens')
@RequiresToken('admin')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  create(@Principal() caller: Caller, @Body() body: CreateTokenRequest) {
    return this.tokens.create(caller.organizationId, body.name, body.scope);
  }

  @Get()
  async list(@Principal() caller: Caller) {
    return { tokens: await this.tokens.list(caller.organizationId) };
  }

  @Delete(':tokenId')
  @HttpCode(204)
  async delete(@Principal() caller: Caller, @Param('tokenId', new IdParamPipe('token')) tokenId: number) {
    await this.tokens.delete(caller.organizationId, tokenId);
  }
}
