import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module.js';
import { OrganizationSecretOrmEntity } from './infrastructure/organization-secret.orm-entity.js';
import { SecretsController } from './http/secrets.controller.js';
import { SecretStore } from './application/secret-store.js';
import { SecretsService } from './application/secrets.service.js';
import { TypeOrmSecretStore } from './infrastructure/typeorm-secret-store.js';

/** Organization secrets: the admin API, and the look-up automation workers use. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationSecretOrmEntity]), TokensModule],
  controllers: [SecretsController],
  providers: [SecretsService, { provide: SecretStore, useClass: TypeOrmSecretStore }],
  exports: [SecretsService],
})
export class SecretsModule {}
