import { AttributeSchema } from './attribute-schema.js';
import type { OnSlaKind } from './on-sla-steps.js';
import type { SignatureCheck } from './signature-schemes.js';
import type { StatusRules } from './status-rules.js';
import { WebhookDedup } from './webhook-dedup.js';
import { allStatuses, type Step, type WorkflowDefinition } from './workflow-definition.js';

/** A published workflow version, ready to use: compiled attribute schema, status rules, runs. */
export class WorkflowVersion implements StatusRules {
  readonly statuses: ReadonlySet<string>;
  readonly defaultOutcome: string | null;
  readonly attributeSchema: AttributeSchema;
  /** Null when every webhook POST makes a case (the default). */
  readonly webhookDedup: WebhookDedup | null;

  constructor(readonly workflowId: number, readonly version: number, readonly definition: WorkflowDefinition) {
    this.statuses = new Set(allStatuses(definition));
    this.defaultOutcome = definition.default_outcome;
    this.attributeSchema = new AttributeSchema(definition);
    this.webhookDedup = definition.webhook_dedup ? new WebhookDedup(definition.webhook_dedup) : null;
  }

  get name(): string {
    return this.definition.name;
  }

  get isDirect(): boolean {
    return this.definition.case_source === 'direct';
  }

  /** Whether the version takes cases by email (at its workflow's inbound address). */
  get isEmail(): boolean {
    return this.definition.case_source === 'email';
  }

  /** Whether the version takes cases from the hosted request form. */
  get isTicketing(): boolean {
    return this.definition.case_source === 'ticketing';
  }

  /** The steps that run when a case enters `status`, if any. */
  runOf(status: string): Step[] | undefined {
    const steps = Object.hasOwn(this.definition.automations, status) ? this.definition.automations[status] : undefined;
    return steps?.length ? steps : undefined;
  }

  /** The `on_sla` steps that run when one of a case's SLA clocks warns or breaches, if any. */
  slaRunOf(kind: OnSlaKind): Step[] | undefined {
    const steps = this.definition.on_sla?.[kind];
    return steps?.length ? steps : undefined;
  }

  hasRun(status: string): boolean {
    return this.runOf(status) !== undefined;
  }
}

/** What intake needs to know about a workflow right now: who owns it, whether it takes cases, with which version. */
export interface WorkflowState {
  id: number;
  organizationId: number;
  published: boolean;
  webhookTokenHash: Buffer | null;
  /** The signature the webhook requires besides its token (integrations.md §2); null when none is set. */
  webhookSignature: SignatureCheck | null;
  /** The latest published version; null until the first publish. */
  current: WorkflowVersion | null;
}
