import { Module, type OnModuleInit } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { CaseStatementParts } from '../cases/domain/case-statement-parts.js';
import { CaseLinkStore } from './application/case-link-store.js';
import { CaseLinksService } from './application/case-links.service.js';
import { CaseLinksController } from './http/case-links.controller.js';
import { caseLinkStatementPart } from './infrastructure/case-link-statement-part.js';
import { PostgresCaseLinkStore } from './infrastructure/postgres-case-link-store.js';

/** Links between cases (casework.md, section 6): the `case_links` table, recorded on the cases' timelines through the cases module. */
@Module({
  imports: [CasesModule],
  controllers: [CaseLinksController],
  providers: [CaseLinksService, { provide: CaseLinkStore, useClass: PostgresCaseLinkStore }],
})
export class CaseLinksModule implements OnModuleInit {
  constructor(private readonly parts: CaseStatementParts) {}

  /** The links of the closed cases the retention purge deletes go first. */
  onModuleInit(): void {
    this.parts.add(caseLinkStatementPart);
  }
}
