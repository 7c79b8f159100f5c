import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { CaseQueriesService } from '../../cases/application/case-queries.service.js';
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
 * workflow's policy, computed now from their histories as the admin case shows them.
 */
@Injectable()
export class SlaReportService {
  constructor(
    private readonly policies: SlaSweepStore,
    private readonly cases: CaseQueriesService,
    private readonly histories: CaseHistories,
    private readonly workflows: WorkflowDraftsService,
  ) {}

  async report(organizationId: number, from: Date, to: Date, workflowId: number | null, now = new Date()): Promise<SlaReportView> {
    if (workflowId !== null) await this.workflows.findOwned(organizationId, workflowId);
    const workflowIds = workflowId !== null ? [workflowId] : await this.policies.workflowsWithPolicies(organizationId);
    const measured: { priority: Priority; clocks: SlaClocks }[] = [];
    for (const id of workflowIds) {
      const inForce = await this.policies.inForce(organizationId, id);
      if (!inForce) continue;
      // A policy applies to the cases created since it was set; the list's bound excludes its own millisecond.
      const since = new Date(Math.max(from.getTime(), inForce.policy.createdAt.getTime()));
      if (since >= to) continue;
      const filter = { workflowId: id, mode: 'live', createdAfter: new Date(since.getTime() - 1).toISOString(), createdBefore: to.toISOString() };
      const { capped } = await this.cases.countUpTo(organizationId, filter, MAX_REPORT_CASES - measured.length);
      if (capped) throw new InvalidRequestError(`the range holds more than ${MAX_REPORT_CASES} cases under SLA policies: narrow from and to, or name a workflow_id`);
      const policy = slaPolicy(inForce.policy.settings);
      const calendar = businessCalendar(inForce.calendar);
      for await (const page of await this.cases.walk(organizationId, filter, PAGE, () => false)) {
        for (const subject of page) {
          if (subject.createdAt < since) continue;
          const history = await this.cases.asWalkRead(organizationId, () => this.histories.of(subject));
          measured.push({ priority: subject.priority, clocks: slaClocks(policy, calendar, subject.priority, history, now) });
        }
      }
    }
    return { from: from.toISOString(), to: to.toISOString(), workflow_id: workflowId, cases: measured.length, clocks: slaReport(measured) };
  }
}
