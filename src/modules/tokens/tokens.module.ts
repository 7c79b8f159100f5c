import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokenOrmEntity } from './access-token.orm-entity.js';
import { BearerTokenCheck } from './bearer-token.check.js';
import { OperatorTokenCheck } from './operator-token.check.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([AccessTokenOrmEntity])],
  controllers: [TokensController],
  providers: [TokensService, BearerTokenCheck, OperatorTokenCheck],
  exports: [TokensService],
})
export class TokensModule {}
