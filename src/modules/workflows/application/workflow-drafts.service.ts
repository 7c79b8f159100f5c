import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { NotFoundError, UnstorableValueError } from '../../../shared/errors/app-error.js';
import { hasUnstorableEscape } from '../../../shared/json/json-text.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedParts } from '../../audit/domain/audit-summary.js';
import { StepTypeRegistry } from '../../extensions/step-type.registry.js';
import { compileStepArguments, type StepArgumentRules } from '../domain/step-arguments.js';
import { allStatuses, parseWorkflowDefinition, sameDefinition, type WorkflowDefinition } from '../domain/workflow-definition.js';
import type { WebhookDedupSetting } from '../domain/webhook-dedup.js';
import { WorkflowDefinitionInvalidError } from '../domain/workflow.errors.js';
import { assignStepTeams } from '../domain/assign-steps.js';
import { TeamNames } from './team-names.js';
import type { Workflow } from '../domain/workflow.js';
import { CaseSourceRegistry } from './case-source-registry.js';
import { WorkflowStore, WorkflowVersionStore } from './workflow-stores.js';

export interface WorkflowView {
  id: number;
  name: string;
  case_source: string;
  sensitive_data: boolean;
  statuses: string[];
  attributes: WorkflowDefinition['attributes'];
  automations: WorkflowDefinition['automations'];
  default_outcome: string | null;
  webhook_dedup: WebhookDedupSetting | null;
  /** Absent when the draft has none. */
  on_sla?: WorkflowDefinition['on_sla'];
  published: boolean;
  version: number | null;
  draft_changed: boolean;
  created_at: string;
  updated_at: string;
}

/** An organization's workflows and their drafts; publishing freezes a draft (WorkflowPublishingService). */
@Injectable()
export class WorkflowDraftsService implements OnApplicationBootstrap {
  private steps: StepArgumentRules;

  constructor(
    private readonly workflows: WorkflowStore,
    private readonly versions: WorkflowVersionStore,
    private readonly caseSources: CaseSourceRegistry,
    private readonly stepTypes: StepTypeRegistry,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly teams: TeamNames,
  ) {}

  /** Once every step type is registered (the registry fills itself in at module init). */
  onApplicationBootstrap(): void {
    this.steps = compileStepArguments(this.stepTypes.all());
  }

  async create(by: ChangeAuthor, organizationId: number, input: unknown): Promise<WorkflowView> {
    const draft = parseOrThrow(input, this.steps, this.caseSources.caseSources);
    await this.checkTeams(organizationId, draft);
    const created = await this.transactions.run(async (tx) => {
      const workflow = await this.workflows.create(tx, organizationId, draft);
      await this.audit.record(tx, { organizationId, by, action: 'workflow.created', target: { type: 'workflow', id: String(workflow.id) }, summary: { name: draft.name } });
      return workflow;
    });
    return this.view(created);
  }

  async list(organizationId: number): Promise<WorkflowView[]> {
    return this.views(await this.workflows.listByOrganization(organizationId));
  }

  async get(organizationId: number, id: number): Promise<WorkflowView> {
    return this.view(await this.findOwned(organizationId, id));
  }

  /**
   * Replaces the draft; published versions and running cases are not affected. Recorded as
   * `action` (a restore is one too) with the JSON Pointers of the parts that changed.
   */
  async replaceDraft(by: ChangeAuthor, organizationId: number, id: number, input: unknown, action = 'workflow.draft_updated', summary: Record<string, unknown> = {}): Promise<WorkflowView> {
    const draft = parseOrThrow(input, this.steps, this.caseSources.caseSources);
    await this.checkTeams(organizationId, draft);
    await this.transactions.run(async (tx) => {
      const before = await this.workflows.lockOwned(tx, organizationId, id);
      if (!before) throw new NotFoundError('workflow');
      await this.workflows.replaceDraft(tx, id, draft);
      await this.audit.record(tx, { organizationId, by, action, target: { type: 'workflow', id: String(id) }, summary: { ...summary, ...changedParts(before.draft, draft) } });
    });
    return this.get(organizationId, id);
  }

  /** Which of `ids` are workflows of the organization. */
  existingIds(organizationId: number, ids: number[]): Promise<number[]> {
    return this.workflows.existingIds(organizationId, ids);
  }

  /**
   * The draft checked by today's rules (a step type it uses may have gone since it was saved):
   * a test run of a draft that does not validate is a 422 pointing into it.
   */
  async checkedDraft(organizationId: number, id: number): Promise<WorkflowDefinition> {
    return parseOrThrow((await this.findOwned(organizationId, id)).draft, this.steps, this.caseSources.caseSources);
  }

  async findOwned(organizationId: number, id: number): Promise<Workflow> {
    const row = await this.workflows.findOwned(organizationId, id);
    if (!row) throw new NotFoundError('workflow');
    return row;
  }

  /** An `assign` step naming a team the organization does not have is refused where it names it (422). */
  private async checkTeams(organizationId: number, draft: WorkflowDefinition): Promise<void> {
    const named = assignStepTeams(draft);
    if (named.length === 0) return;
    const missing = new Set(await this.teams.missing(organizationId, [...new Set(named.map((step) => step.team))]));
    const problems = named.filter((step) => missing.has(step.team)).map((step) => ({ path: step.path, error: `the organization has no team named "${step.team}"` }));
    if (problems.length) throw new WorkflowDefinitionInvalidError(problems);
  }

  private async view(row: Workflow): Promise<WorkflowView> {
    return (await this.views([row]))[0]!;
  }

  /** The rows as views, each compared with its latest published version (one query for all). */
  private async views(rows: Workflow[]): Promise<WorkflowView[]> {
    const published = rows.flatMap((row) => (row.version === null ? [] : [{ workflowId: row.id, version: row.version }]));
    const latest = await this.versions.definitions(published);
    return rows.map((row) => toView(row, latest.get(row.id)));
  }
}

function parseOrThrow(input: unknown, steps: StepArgumentRules, caseSources: readonly string[]): WorkflowDefinition {
  const result = parseWorkflowDefinition(input, steps, caseSources);
  if (!result.ok) throw new WorkflowDefinitionInvalidError(result.problems);
  // The json column (unlike jsonb) would store them, and intake copies a definition's text into text columns.
  if (hasUnstorableEscape(JSON.stringify(result.definition))) throw new UnstorableValueError();
  return result.definition;
}

function toView(row: Workflow, latest: WorkflowDefinition | undefined): WorkflowView {
  const d = row.draft;
  return {
    id: row.id,
    name: d.name,
    case_source: d.case_source,
    sensitive_data: d.sensitive_data,
    statuses: allStatuses(d),
    attributes: d.attributes,
    automations: d.automations,
    default_outcome: d.default_outcome,
    webhook_dedup: d.webhook_dedup ?? null,
    ...(d.on_sla ? { on_sla: d.on_sla } : {}),
    published: row.published,
    version: row.version,
    draft_changed: latest === undefined || !sameDefinition(row.draft, latest),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
