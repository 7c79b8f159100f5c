import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { CaseViewStore } from './application/case-view-store.js';
import { CaseViewsService } from './application/case-views.service.js';
import { CaseViewsController } from './http/case-views.controller.js';
import { PostgresCaseViewStore } from './infrastructure/postgres-case-view-store.js';

/** Saved views of the case list (casework.md, section 5). */
@Module({
  imports: [CasesModule, TokensModule],
  controllers: [CaseViewsController],
  providers: [CaseViewsService, { provide: CaseViewStore, useClass: PostgresCaseViewStore }],
})
export class CaseViewsModule {}
