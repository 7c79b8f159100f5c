import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokenOrmEntity } from './infrastructure/access-token.orm-entity.js';
import { BearerTokenCheck } from './http/bearer-token.check.js';
import { OperatorTokenCheck } from './http/operator-token.check.js';
import { TokensController } from './http/tokens.controller.js';
import { TokenStore } from './application/token-store.js';
import { TokensService } from './application/tokens.service.js';
import { TypeOrmTokenStore } from './infrastructure/typeorm-token-store.js';

@Module({
  imports: [TypeOrmModule.forFeature([AccessTokenOrmEntity])],
  controllers: [TokensController],
  providers: [TokensService, { provide: TokenStore, useClass: TypeOrmTokenStore }, BearerTokenCheck, OperatorTokenCheck],
  exports: [TokensService],
})
export class TokensModule {}
