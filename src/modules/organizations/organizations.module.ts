import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module.js';
import { OperatorOrganizationsController } from './operator-organizations.controller.js';
import { OrganizationOrmEntity } from './organization.orm-entity.js';
import { OrganizationsService } from './organizations.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrganizationOrmEntity]), TokensModule],
  controllers: [OperatorOrganizationsController],
  providers: [OrganizationsService],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
