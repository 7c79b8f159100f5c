import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PeopleModule } from '../people/people.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { OrganizationStore } from './application/organization-store.js';
import { OrganizationsService } from './application/organizations.service.js';
import { OperatorOrganizationsController } from './http/operator-organizations.controller.js';
import { OrganizationOrmEntity } from './infrastructure/organization.orm-entity.js';
import { TypeOrmOrganizationStore } from './infrastructure/typeorm-organization-store.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrganizationOrmEntity]), TokensModule, PeopleModule],
  controllers: [OperatorOrganizationsController],
  providers: [OrganizationsService, { provide: OrganizationStore, useClass: TypeOrmOrganizationStore }],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
