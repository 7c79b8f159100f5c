import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { CaseQueriesService, type ListFilterRequest } from '../../cases/application/case-queries.service.js';
import { WorkflowDraftsService } from '../../workflows/application/workflow-drafts.service.js';
import { businessCalendar } from '../domain/business-calendar.js';
import { type SlaClocks, slaClocks } from '../domain/sla-clocks.js';
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
    const measured: { priority: Priority; clocks: SlaClocks }[] = [];
    for (const id of workflowIds) {
      if (gone()) break;
      const inForce = await this.policies.inForce(organizationId, id);
      if (!inForce) continue;
      const setAt = inForce.policy.createdAt;
      const policy = slaPolicy(inForce.policy.settings);
      const calendar = businessCalendar(inForce.calendar);
      const seen = new Set<number>();
      for (const filter of policyCases(id, from, to, setAt)) {
        const { capped } = await this.cases.countUpTo(organizationId, filter, MAX_REPORT_CASES - measured.length);
        if (capped) throw new InvalidRequestError(`the range holds more than ${MAX_REPORT_CASES} cases under SLA policies: narrow from and to, or name a workflow_id`);
        for await (const page of await this.cases.walk(organizationId, filter, PAGE, gone)) {
          for (const subject of page) {
            // The two filters' bounds overlap by a millisecond around `setAt`.
            if (subject.createdAt < from || seen.has(subject.id)) continue;
            seen.add(subject.id);
            const history = await this.cases.asWalkRead(organizationId, () => this.histories.underPolicy(subject, setAt), gone);
            if (history) measured.push({ priority: subject.priority, clocks: slaClocks(policy, calendar, subject.priority, history, now) });
          }
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
