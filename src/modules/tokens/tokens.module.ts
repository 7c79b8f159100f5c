import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokenOrmEntity } from './access-token.orm-entity.js';
import { BearerTokenGuard } from './bearer-token.guard.js';
import { OperatorGuard } from './operator.guard.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([AccessTokenOrmEntity])],
  controllers: [TokensController],
  providers: [TokensService, BearerTokenGuard, OperatorGuard],
  exports: [TokensService, BearerTokenGuard, OperatorGuard],
})
export class TokensModule {}
