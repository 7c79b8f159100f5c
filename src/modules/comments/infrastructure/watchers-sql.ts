import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CaseWatchingSql } from '../../cases/domain/case-watching-sql.js';

/**
 * Lends the admin case list the watchers' SQL (CaseWatchingSql): the count, and the condition
 * of `watching=true`, each an index probe of case_watchers by (organization, case). The case
 * row's assignee always counts as watching (casework.md section 4), once even when they also
 * watch it.
 */
@Injectable()
export class WatchersSql implements OnModuleInit {
  constructor(private readonly watching: CaseWatchingSql) {}

  onModuleInit(): void {
    this.watching.lend({
      watchedBy: (c, user) =>
        `(${c}.assignee_id = ${user}::bigint OR EXISTS (SELECT 1 FROM case_watchers w WHERE w.organization_id = ${c}.organization_id AND w.case_id = ${c}.id AND w.user_id = ${user}::bigint))`,
      watcherCount: (c) =>
        `((SELECT count(*)::int FROM case_watchers w WHERE w.organization_id = ${c}.organization_id AND w.case_id = ${c}.id AND w.user_id IS DISTINCT FROM ${c}.assignee_id) + (${c}.assignee_id IS NOT NULL)::int)`,
    });
  }
}
