import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationNames } from '../people/application/organization-names.js';
import { OrganizationOrmEntity } from './infrastructure/organization.orm-entity.js';
import { TypeOrmOrganizationStore } from './infrastructure/typeorm-organization-store.js';

/**
 * Offers the people module the organizations' names. Global: the organizations module imports
 * the people module, which therefore cannot import it back.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationOrmEntity])],
  providers: [{ provide: OrganizationNames, useClass: TypeOrmOrganizationStore }],
  exports: [OrganizationNames],
})
export class OrganizationNamesModule {}
