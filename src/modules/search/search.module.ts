import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { CaseStatementParts } from '../cases/domain/case-statement-parts.js';
import { CaseTextSearches } from '../cases/domain/case-text-search.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { CASE_MESSAGE_SOURCES, CommentSource, EmailReplySource } from './application/case-message-sources.js';
import { CaseSearchService } from './application/case-search.service.js';
import { SearchIndexer } from './application/search-indexer.service.js';
import { SearchIndexMetrics, SearchIndexStore, SearchReads } from './application/search.ports.js';
import { PostgresSearchIndexStore } from './infrastructure/postgres-search-index-store.js';
import { PostgresSearchReads } from './infrastructure/postgres-search-reads.js';
import { PromSearchIndexMetrics } from './infrastructure/search-index.metrics.js';
import { SearchIndexerLoop } from './infrastructure/search-indexer.loop.js';
import { searchPurgePart } from './infrastructure/search-purge-part.js';

/**
 * Full-text search over cases (docs/search.md): the documents, kept by the indexer in worker
 * roles, and the `q` of the case lists, which the cases module runs through CaseTextSearches.
 */
@Module({})
export class SearchModule {
  constructor(searches: CaseTextSearches, search: CaseSearchService, parts: CaseStatementParts) {
    searches.register(search);
    parts.add(searchPurgePart);
  }

  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: SearchModule,
      imports: [CasesModule, WorkflowsModule],
      providers: [
        CaseSearchService,
        { provide: SearchReads, useClass: PostgresSearchReads },
        ...(worker
          ? [
              { provide: SearchIndexStore, useClass: PostgresSearchIndexStore },
              { provide: SearchIndexMetrics, useClass: PromSearchIndexMetrics },
              EmailReplySource,
              CommentSource,
              { provide: CASE_MESSAGE_SOURCES, useFactory: (replies: EmailReplySource, comments: CommentSource) => [replies, comments], inject: [EmailReplySource, CommentSource] },
              SearchIndexer,
              SearchIndexerLoop,
            ]
          : []),
      ],
    };
  }
}
