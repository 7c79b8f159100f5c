import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { CaseQueriesService, type ListFilterRequest } from '../../cases/application/case-queries.service.js';
import { WorkflowDraftsService } from '../../workflows/application/workflow-drafts.service.js';
import { businessCalendar } from '../domain/business-calendar.js';
import { type CaseHistory, type SlaClocks, slaClocks } from '../domain/sla-clocks.js';
import { type Priority, slaPolicy } from '../domain/sla-policy.js';
import { type SlaReportRow, slaReport } from '../domain/sla-report.js';
import { CaseHistories } from './case-histories.js';
import { SlaSweepStore } from './sla-stores.js';

/**
 * The cases one report measures at most: each is a timeline read, so a report costs at most this
 * many. The case list's pages and every timeline read are the organization's list reads, each
 * charged to their share of database time (LIST_READ_DATABASE_MS_PER_SECOND) and waiting for it.
 */
export const MAX_REPORT_CASES = 2000;
const PAGE = 100;

export interface SlaReportView {
  from: string;
  to: string;
  workflow_id: number | null;
  cases: number;
  clocks: SlaReportRow[];
}

/**
 * The SLA report (sla.md section 4): the clocks of the live cases created in the range under a
 * workflow's policy (created since it was set, or their priority changed since), computed now
 * from their histories as the admin case shows them.
 */
@Injectable()
export class SlaReportService {
  constructor(
    private readonly policies: SlaSweepStore,
    private readonly cases: CaseQueriesService,
    private readonly histories: CaseHistories,
    private readonly workflows: WorkflowDraftsService,
  ) {}

  /** `gone` (the client went away) ends the reads between cases; what was measured by then is answered to no one. */
  async report(organizationId: number, from: Date, to: Date, workflowId: number | null, gone: () => boolean, now = new Date()): Promise<SlaReportView> {
    if (workflowId !== null) await this.workflows.findOwned(organizationId, workflowId);
    const workflowIds = workflowId !== null ? [workflowId] : await this.policies.workflowsWithPolicies(organizationId);
    // Every count first, each refused (429) as any list read is while nothing costly was read;
    // then the walks and their timelines, which wait for their shares instead.
    const walks: { filter: ListFilterRequest; setAt: Date; measure: (priority: Priority, history: CaseHistory) => SlaClocks }[] = [];
    let counted = 0;
    for (const id of workflowIds) {
      const inForce = await this.policies.inForce(organizationId, id);
      if (!inForce) continue;
      const [policy, calendar, setAt] = [slaPolicy(inForce.policy.settings), businessCalendar(inForce.calendar), inForce.policy.createdAt];
      for (const filter of policyCases(id, from, to, setAt)) {
        const { count, capped } = await this.cases.countUpTo(organizationId, filter, MAX_REPORT_CASES - counted);
        if (capped) throw new InvalidRequestError(`the range holds more than ${MAX_REPORT_CASES} cases under SLA policies: narrow from and to, or name a workflow_id`);
        counted += count;
        if (count > 0) walks.push({ filter, setAt, measure: (priority, history) => slaClocks(policy, calendar, priority, history, now) });
      }
    }
    const measured: { priority: Priority; clocks: SlaClocks }[] = [];
    // A workflow's two filters overlap by a millisecond around its policy's `setAt`.
    const seen = new Set<number>();
    for (const { filter, setAt, measure } of walks) {
      for await (const page of await this.cases.walk(organizationId, filter, PAGE, gone, true)) {
        for (const subject of page) {
          if (subject.createdAt < from || seen.has(subject.id)) continue;
          seen.add(subject.id);
          const history = await this.cases.asWalkRead(organizationId, () => this.histories.underPolicy(subject, setAt), gone);
          if (history) measured.push({ priority: subject.priority, clocks: measure(subject.priority, history) });
        }
      }
    }
    return { from: from.toISOString(), to: to.toISOString(), workflow_id: workflowId, cases: measured.length, clocks: slaReport(measured) };
  }
}

/**
 * The list filters of the live cases of the workflow created in [from, to) a policy set at `setAt`
 * may apply to: those created since it was set, and those created before it and changed since
 * (whose priority may have changed since; CaseHistories.underPolicy tells). A list's bound excludes
 * its own instant, so a lower bound is given a millisecond early (the walk skips what lies before `from`).
 */
function policyCases(workflowId: number, from: Date, to: Date, setAt: Date): ListFilterRequest[] {
  const before = (at: Date) => new Date(at.getTime() - 1).toISOString();
  const filters: ListFilterRequest[] = [];
  const since = from > setAt ? from : setAt;
  if (since < to) filters.push({ workflowId, mode: 'live', createdAfter: before(since), createdBefore: to.toISOString() });
  const until = setAt < to ? setAt : to;
  if (from < until) filters.push({ workflowId, mode: 'live', createdAfter: before(from), createdBefore: until.toISOString(), updatedAfter: before(setAt) });
  return filters;
}
