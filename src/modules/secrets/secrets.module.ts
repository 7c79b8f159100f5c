import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module.js';
import { OrganizationSecretOrmEntity } from './organization-secret.orm-entity.js';
import { SecretsController } from './secrets.controller.js';
import { SecretsService } from './secrets.service.js';

/** Organization secrets: the admin API, and the look-up automation workers use. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationSecretOrmEntity]), TokensModule],
  controllers: [SecretsController],
  providers: [SecretsService],
  exports: [SecretsService],
})
export class SecretsModule {}
