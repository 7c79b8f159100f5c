import { Body, Controller, Get, Post } from '@nestjs/common';
import { RequiresOperatorToken } from '../tokens/operator.guard.js';
import { CreateOrganizationRequest } from './create-organization.request.js';
import { OrganizationsService } from './organizations.service.js';

@Controller('api/operator/v1/organizations')
@RequiresOperatorToken()
export class OperatorOrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  create(@Body() body: CreateOrganizationRequest) {
    return this.organizations.create(body.name);
  }

  @Get()
  async list() {
    return { organizations: await this.organizations.list() };
  }
}
