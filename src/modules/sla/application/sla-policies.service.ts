import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedParts } from '../../audit/domain/audit-summary.js';
import { WorkflowDraftsService } from '../../workflows/application/workflow-drafts.service.js';
import { allStatuses } from '../../workflows/domain/workflow-definition.js';
import { parseSlaPolicySettings, type SlaPolicySettings } from '../domain/sla-policy.js';
import { CalendarStore, SlaPolicyStore, type StoredSlaPolicy } from './sla-stores.js';

export interface SlaPolicyView extends SlaPolicySettings {
  workflow_id: number;
  created_at: string;
  updated_at: string;
}

/** A workflow's SLA policy (sla.md section 2). */
@Injectable()
export class SlaPoliciesService {
  constructor(
    private readonly policies: SlaPolicyStore,
    private readonly calendars: CalendarStore,
    private readonly workflows: WorkflowDraftsService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * Sets the workflow's policy. Pause statuses are checked against the workflow's current
   * definition (its draft, which is what publishing freezes next).
   */
  async put(by: ChangeAuthor, organizationId: number, workflowId: number, body: unknown): Promise<SlaPolicyView> {
    const workflow = await this.workflows.findOwned(organizationId, workflowId);
    const parsed = parseSlaPolicySettings(body, allStatuses(workflow.draft));
    if (!parsed.ok) throw new InvalidRequestError('invalid request body', parsed.problems);
    const { settings } = parsed;
    return toView(await this.transactions.run(async (tx) => {
      if (!(await this.calendars.lock(tx, organizationId, settings.calendar, false))) {
        throw new InvalidRequestError('invalid request body', [{ path: '/calendar', error: `no calendar is named "${settings.calendar}"` }]);
      }
      const stored = await this.policies.put(tx, organizationId, workflowId, settings);
      await this.audit.record(tx, { organizationId, by, action: 'sla_policy.set', target: { type: 'workflow', id: String(workflowId) }, summary: changedParts(stored.before ?? {}, settings) });
      return stored;
    }));
  }

  async get(organizationId: number, workflowId: number): Promise<SlaPolicyView> {
    await this.workflows.findOwned(organizationId, workflowId);
    const found = await this.policies.find(organizationId, workflowId);
    if (!found) throw new NotFoundError('SLA policy');
    return toView(found);
  }

  async delete(by: ChangeAuthor, organizationId: number, workflowId: number): Promise<void> {
    await this.workflows.findOwned(organizationId, workflowId);
    await this.transactions.run(async (tx) => {
      if (!(await this.policies.delete(tx, organizationId, workflowId))) throw new NotFoundError('SLA policy');
      await this.audit.record(tx, { organizationId, by, action: 'sla_policy.deleted', target: { type: 'workflow', id: String(workflowId) } });
    });
  }
}

function toView(policy: StoredSlaPolicy): SlaPolicyView {
  return { workflow_id: policy.workflowId, ...policy.settings, created_at: policy.createdAt.toISOString(), updated_at: policy.updatedAt.toISOString() };
}
