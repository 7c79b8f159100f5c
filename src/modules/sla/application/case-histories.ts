import { Injectable } from '@nestjs/common';
import { CaseFeedReads } from '../../cases/domain/case-feed-reads.js';
import type { CaseProps } from '../../cases/domain/case.js';
import { type CaseHistory, policyApplies } from '../domain/sla-clocks.js';
import { caseHistoryFrom, type TimelineEntry } from '../domain/sla-timers.js';

const TIMELINE_PAGE = 500;
/** A case's timeline is read up to this many pages (runs fill it too); past it the clocks see its start only. */
const TIMELINE_PAGES = 20;

/** What the clocks need of a case, read from its timeline through the cases module. */
@Injectable()
export class CaseHistories {
  constructor(private readonly cases: CaseFeedReads) {}

  async of(subject: CaseProps): Promise<CaseHistory> {
    const rows: TimelineEntry[] = [];
    let after = '0';
    for (let pages = 0; pages < TIMELINE_PAGES; pages++) {
      const page = await this.cases.timeline(subject.organizationId, subject.id, after, TIMELINE_PAGE);
      rows.push(...page);
      if (page.length < TIMELINE_PAGE) break;
      after = String(page.at(-1)!.id);
    }
    return caseHistoryFrom(subject.createdAt, subject.status, rows);
  }

  /** The case's history when a policy set at `setAt` applies to it (policyApplies; live cases only), else null. */
  async underPolicy(subject: CaseProps, setAt: Date): Promise<CaseHistory | null> {
    if (subject.mode !== 'live') return null;
    // Unchanged since the policy was set, a case created before it cannot have had its priority changed since: no timeline read.
    if (subject.createdAt < setAt && subject.updatedAt < setAt) return null;
    const history = await this.of(subject);
    return policyApplies(history, setAt) ? history : null;
  }
}
