import type { Transaction } from '../../../shared/database/transaction.js';
import type { MergePointers } from '../domain/case-merge.js';

/**
 * Which case each merged case went into (the `case_merges` table). A pointer always names the
 * final target, so the cases shown on a case are itself and those pointing at it.
 */
export abstract class CaseMerges {
  /** The pointers of these cases of the organization, read in `tx` (once the cases are locked, so they are current). */
  abstract pointers(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<MergePointers>;

  /**
   * Records, in the merge's transaction, that `mergedId` went into `intoId`: its pointer, and
   * those of the cases merged into it before, now point at `intoId`; its Message-IDs (and so
   * the replies to its thread) go to `intoId`; and copies of its messages (the first one and
   * every reply, each with `merged_from` and `received_at`) are added at the end of `intoId`'s
   * timeline, so the target's thread shows them and its timeline only ever grows at the end.
   */
  abstract store(tx: Transaction, organizationId: number, mergedId: number, intoId: number): Promise<void>;
}

/** What other modules read of merges, never the table: a list of a case's records (its comments) shows the merged cases' too. */
export abstract class CaseMergeReads {
  /** The cases whose records `caseId` shows: itself and every case merged into it. */
  abstract shownOn(organizationId: number, caseId: number): Promise<number[]>;
}
