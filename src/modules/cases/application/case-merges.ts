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

/**
 * SQL (a subquery, for `IN (...)`) of the cases whose records a case shows: itself and every
 * case merged into it. `organizationId` and `caseId` are SQL expressions (parameters). Another
 * module's list of a case's records (comments) shows the merged cases' too by matching its
 * `case_id` against this instead of the case's id.
 */
export function casesShownOnSql(organizationId: string, caseId: string): string {
  return `SELECT ${caseId}::bigint UNION ALL SELECT merged_case_id FROM case_merges WHERE organization_id = ${organizationId} AND into_case_id = ${caseId}`;
}
