import type { Transaction } from '../../../shared/database/transaction.js';
import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';
import type { Case, CaseDraft, CaseProps } from './case.js';

export interface IdempotencyClaim {
  key: string;
  /** SHA-256 of the workflow id and the exact request body. */
  requestHash: Buffer;
}

/** A webhook delivery's de-duplication key: the SHA-256 of its JSON text, and how long it holds (its workflow's window). */
export interface DeliveryKey {
  hash: Buffer;
  windowSeconds: number;
}

/** What a creation reads back: the stored case, or (for intakes that answer with it only) its id. */
export type CreateAnswer = 'case' | 'id';
export type Created<A extends CreateAnswer> = A extends 'case' ? { id: number; case: CaseProps } : { id: number };

export type CreateResult<A extends CreateAnswer> =
  | { created: Created<A> }
  | { claimedBy: { caseId: number; requestHash: Buffer } }
  /** A delivery whose key a case of the workflow took within the window: nothing was stored. */
  | { duplicateOf: number };

export interface ReplyUsage {
  replies: number;
  bytes: number;
}

/** Persistence port of the Case aggregate; the Postgres implementation chooses the statements. */
export abstract class CaseRepository {
  /**
   * Stores a new case, its creation event, (when its first status has one) its pending run and
   * (when it came from a message) the message's attachments and Message-ID, atomically. With an idempotency claim, a key already claimed in the last 24 hours stores
   * nothing and says which case claimed it. With a delivery key, a key a case of the workflow
   * took within the window stores nothing and says which case took it; concurrent deliveries
   * of one key store one case. `answer` says what is read back.
   */
  abstract create<A extends CreateAnswer>(draft: CaseDraft, answer: A, idempotency?: IdempotencyClaim, delivery?: DeliveryKey): Promise<CreateResult<A>>;

  abstract find(organizationId: number, workflowId: number, caseId: number): Promise<CaseProps | null>;

  /** Which cases of the workflow hold messages with these Message-IDs (by Message-ID; unknown ones are absent). */
  abstract casesByMessageId(workflowId: number, messageIds: readonly string[]): Promise<Map<string, number>>;

  /** What the case's email replies hold: how many, and their stored bytes with the bytes of every file of the case. */
  abstract replyUsage(caseId: number): Promise<ReplyUsage>;

  abstract findClaim(organizationId: number, key: string): Promise<{ caseId: number; requestHash: Buffer } | null>;

  /**
   * Loads the case with a row lock, lets `change` act on the aggregate, and stores what it
   * did in the same transaction; concurrent changes to one case run one after the other.
   */
  abstract change(organizationId: number, workflowId: number, caseId: number, change: (subject: Case) => void): Promise<CaseProps | null>;

  /**
   * Loads cases and their unfinished runs under the cases' row locks inside `tx`, for a unit of
   * work that spans more than this repository (a worker executing runs' steps): changes to a
   * case and its runs happen one after the other. The locks are taken in id order, so two
   * transactions loading overlapping cases never wait for each other in a circle. Cases not
   * found are missing from the map.
   */
  abstract load(tx: Transaction, caseIds: readonly number[]): Promise<Map<number, Case>>;

  /**
   * As `load`, for a unit of work an admin request starts (a merge, a link, CaseWorkService's
   * change with its audit entry): only the
   * organization's cases, locked in id order, under the pool's statement timeout.
   */
  abstract lock(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<Map<number, Case>>;

  /**
   * Stores what the case and its runs did since they were loaded, with their timeline and the
   * events for subscribers, inside `tx`. A run a move started gets its id, a parked run the
   * time it goes on. Returns the case as stored.
   */
  abstract save(tx: Transaction, subject: Case): Promise<CaseProps>;

  /**
   * Starts runs of the workflow's `on_sla` steps on a case locked and saved in `tx` (sla.md
   * section 3), one per kind given, pending for the relay like a run a move starts, on the
   * case's version and status. A run a move starts supersedes them as it does any unfinished run.
   */
  abstract startSlaRuns(tx: Transaction, subject: Case, kinds: readonly OnSlaKind[]): Promise<void>;
}
