import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { listOf, schemaRef } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { RequiresOperatorToken } from '../../tokens/http/operator-token.check.js';
import { CreateOrganizationRequest } from './create-organization.request.js';
import { OrganizationsService } from '../application/organizations.service.js';

const OPERATOR_API_DISABLED = 'The operator API is disabled: the service was started without `OPERATOR_TOKEN`.';

@Controller('api/operator/v1/organizations')
@RequiresOperatorToken()
@ApiTags('Operator')
@ApiSecurity('operatorToken')
export class OperatorOrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createOrganization',
    summary: 'Create an organization',
    description: 'A new organization with its first admin token, shown in this answer only; with `owner_email`, also its first owner, invited by mail (a sign-in link valid 7 days).',
    success: { status: 201, description: 'The organization and its admin token.', schema: schemaRef('CreatedOrganization') },
    errors: {
      404: OPERATOR_API_DISABLED,
      422: '`name` missing or not 1 to 200 characters, `owner_email` not an email address, an unsupported key, or a body that is not a valid JSON object.',
    },
  })
  create(@ChangeAuthor() by: Author, @Body() body: CreateOrganizationRequest) {
    return this.organizations.create(by, body.name, body.owner_email);
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listOrganizations',
    summary: 'List organizations',
    description: 'Every organization, oldest first.',
    success: { status: 200, description: 'The organizations.', schema: listOf('organizations', 'Organization') },
    errors: { 404: OPERATOR_API_DISABLED },
  })
  async list() {
    return { organizations: await this.organizations.list() };
  }
}
