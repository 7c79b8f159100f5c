import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { RequiresToken } from '../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../tokens/principal.js';
import { Principal } from '../tokens/principal.decorator.js';
import { PutSecretRequest } from './put-secret.request.js';
import { SecretNamePipe } from './secret-name.pipe.js';
import { SecretsService } from './secrets.service.js';

const SecretName = (creating = false) => Param('name', new SecretNamePipe(creating));

/** Organization secrets for `{{ secrets.NAME }}` in http_request steps; no answer ever holds a value. */
@Controller('api/admin/v1/secrets')
@RequiresToken('admin')
export class SecretsController {
  constructor(private readonly secrets: SecretsService) {}

  @Put(':name')
  @HttpCode(200)
  async put(@Principal() caller: Caller, @SecretName(true) name: string, @Body() body: PutSecretRequest) {
    return { secret: await this.secrets.put(caller.organizationId, name, body.value) };
  }

  @Get()
  async list(@Principal() caller: Caller) {
    return { secrets: await this.secrets.list(caller.organizationId) };
  }

  @Delete(':name')
  @HttpCode(204)
  async delete(@Principal() caller: Caller, @SecretName() name: string) {
    await this.secrets.delete(caller.organizationId, name);
  }
}
