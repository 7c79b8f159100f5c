import type { Transaction } from '../../../shared/database/transaction.js';
import type { StoredVerificationOptions } from '../domain/webhook-verification.js';
import type { PublishedVersion, StoredWebhookToken, StoredWebhookVerification, Workflow } from '../domain/workflow.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';

/**
 * The module's repository ports, bound to its infrastructure. Methods that take a transaction
 * run in the one that also invalidates the workflow's cached state (PublishedWorkflowsService.change).
 */
export abstract class WorkflowStore {
  /** Stores a new workflow with this draft, refused past the organization's cap. */
  abstract create(tx: Transaction, organizationId: number, draft: WorkflowDefinition): Promise<Workflow>;
  /** The organization's workflows, in id order. */
  abstract listByOrganization(organizationId: number): Promise<Workflow[]>;
  abstract find(id: number): Promise<Workflow | undefined>;
  abstract findOwned(organizationId: number, id: number): Promise<Workflow | undefined>;
  /** As `findOwned`, with the row locked until `tx` ends. */
  abstract lockOwned(tx: Transaction, organizationId: number, id: number): Promise<Workflow | undefined>;
  /** Every workflow published at least once (so one that may have cases), of every organization. */
  abstract everPublished(): Promise<{ id: number; organizationId: number }[]>;
  /** Which of `ids` are workflows of the organization. */
  abstract existingIds(organizationId: number, ids: number[]): Promise<number[]>;
  abstract replaceDraft(tx: Transaction, id: number, draft: WorkflowDefinition): Promise<void>;
  /** Publishes the workflow, as `version` when given (else as the version it has). */
  abstract markPublished(tx: Transaction, id: number, version?: number): Promise<void>;
  abstract markUnpublished(tx: Transaction, id: number): Promise<void>;
  /**
   * Sets the webhook token when the workflow has none yet or, `replacing`, when it has one;
   * whether it was set.
   */
  abstract setWebhookToken(tx: Transaction, id: number, token: StoredWebhookToken, replacing: boolean): Promise<boolean>;
}

export abstract class WorkflowVersionStore {
  /** The workflow's versions without their definitions, newest first. */
  abstract summaries(workflowId: number): Promise<Omit<PublishedVersion, 'definition'>[]>;
  abstract find(workflowId: number, version: number): Promise<PublishedVersion | undefined>;
  /** A version known to exist (a workflow's current one); fails when it does not. */
  abstract get(workflowId: number, version: number, tx?: Transaction): Promise<PublishedVersion>;
  /** The definitions of these versions, by workflow id (one query for all). */
  abstract definitions(versions: { workflowId: number; version: number }[]): Promise<Map<number, WorkflowDefinition>>;
  abstract insert(tx: Transaction, version: Omit<PublishedVersion, 'createdAt'>): Promise<void>;
}

export abstract class WebhookVerificationStore {
  abstract find(workflowId: number): Promise<StoredWebhookVerification | undefined>;
  /** Sets or replaces the workflow's verification. */
  abstract put(tx: Transaction, workflowId: number, options: StoredVerificationOptions, secretCiphertext: string): Promise<void>;
  /** Whether there was one to delete. */
  abstract delete(tx: Transaction, workflowId: number): Promise<boolean>;
}
