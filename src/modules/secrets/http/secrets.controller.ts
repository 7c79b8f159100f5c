import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { listOf, type Schema, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { PutSecretRequest } from './put-secret.request.js';
import { SecretNamePipe } from './secret-name.pipe.js';
import { SecretsService } from '../application/secrets.service.js';

const SecretName = (creating = false) => Param('name', new SecretNamePipe(creating));
const nameParameter = (description: string): Schema => ({ name: 'name', in: 'path', required: true, description, schema: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$' } });

/** Organization secrets for `{{ secrets.NAME }}` in http_request steps; no answer ever holds a value. */
@Controller('api/admin/v1/secrets')
@RequiresRole('admin')
@ApiTags('Secrets')
@ApiSecurity('adminToken')
export class SecretsController {
  constructor(private readonly secrets: SecretsService) {}

  @Put(':name')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'putSecret',
    summary: 'Create or replace a secret',
    description: [
      'Stores a credential for automation, such as a CRM API key, so that workflow definitions hold `{{ secrets.NAME }}` instead of the credential itself (definitions are plain JSON, shown to every admin). A definition may use it in http_request `headers`, url query values and `body` only; anywhere else it is a 422 when the definition is saved.',
      'Runs read the value when their request is sent: replacing a secret acts on the next request, deleting one makes runs that need it fail with an error naming the secret.',
    ],
    parameters: [nameParameter('`[A-Z][A-Z0-9_]{0,63}`; any other name is a 422.')],
    success: { status: 200, description: 'The secret, without its value.', schema: wrapped('secret', schemaRef('Secret')) },
    errors: { 422: 'A name that is not `[A-Z][A-Z0-9_]{0,63}`; `value` missing, not a string, empty or over 8,192 bytes; an unsupported key; a body that is not a valid JSON object. Or the organization already has as many secrets (a replaced one adds none) as `MAX_SECRETS_PER_ORGANIZATION` allows (`cap` and `limit` name it).' },
  })
  async put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SecretName(true) name: string, @Body() body: PutSecretRequest) {
    return { secret: await this.secrets.put(by, caller.organizationId, name, body.value) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listSecrets',
    summary: 'List secrets',
    description: 'The organization\'s secrets by name; never a value.',
    success: { status: 200, description: 'The secrets.', schema: listOf('secrets', 'Secret') },
  })
  async list(@Principal() caller: Caller) {
    return { secrets: await this.secrets.list(caller.organizationId) };
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteSecret',
    summary: 'Delete a secret',
    description: `Runs that need it fail from then on, naming it. ${BODY_IGNORED}`,
    parameters: [nameParameter('The secret\'s name; a malformed one names nothing (404).')],
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: 'No secret of this name in the organization.' },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SecretName() name: string) {
    await this.secrets.delete(by, caller.organizationId, name);
  }
}
