import type { StoredVerificationOptions } from './webhook-verification.js';
import type { WorkflowDefinition } from './workflow-definition.js';

/** A workflow as stored: its draft, what of it is published, and its webhook token. */
export interface Workflow {
  id: number;
  organizationId: number;
  draft: WorkflowDefinition;
  published: boolean;
  /** Latest published version, null until the first publish. */
  version: number | null;
  webhookTokenHash: Buffer | null;
  webhookTokenCiphertext: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A published version: frozen, never updated. */
export interface PublishedVersion {
  workflowId: number;
  version: number;
  definition: WorkflowDefinition;
  /** The name of whoever published it; null for versions published before it was recorded. */
  publishedBy: string | null;
  createdAt: Date;
}

/** The signature a workflow's webhook requires, with its secret sealed. */
export interface StoredWebhookVerification {
  workflowId: number;
  options: StoredVerificationOptions;
  secretCiphertext: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A webhook token as stored: hashed for the check, sealed for showing again. */
export interface StoredWebhookToken {
  hash: Buffer;
  ciphertext: string;
}
