import { CLOSED, type StatusRules } from '../../workflows/domain/status-rules.js';
import type { Actor, Case } from './case.js';
import { MergeRefusedError } from './case.errors.js';

/** The outcome of a case closed by being merged into another. */
export const MERGED_OUTCOME = 'Merged';

/** Where each of the cases concerned was merged, when it was (a case absent from the map was not). */
export type MergePointers = ReadonlyMap<number, number>;

/** The refusals that need nothing but the two cases' ids and workflows, checked before anything is locked. */
export function checkMergeTarget(merged: { id: number; workflowId: number }, into: { id: number; workflowId: number }): void {
  if (merged.id === into.id) throw new MergeRefusedError('a case cannot be merged into itself', 'into');
  if (merged.workflowId !== into.workflowId) throw new MergeRefusedError('a case can only be merged into a case of the same workflow', 'into');
}

/**
 * Merges `merged` into `into`, both locked: the merged case is Closed with outcome `Merged` (a
 * move like any other: its Closed run starts, subscribers hear of it), and both timelines say
 * so. A merge is final: a case merged once (even reopened since) is neither merged again nor
 * merged into, so every pointer names a case that was never merged.
 */
export function mergeCases(merged: Case, into: Case, rules: StatusRules, actor: Actor, pointers: MergePointers): void {
  checkMergeTarget(merged, into);
  const mergedAlready = pointers.get(merged.id);
  if (mergedAlready !== undefined) throw new MergeRefusedError(`this case was already merged into case ${mergedAlready}`);
  const intoMerged = pointers.get(into.id);
  if (intoMerged !== undefined) throw new MergeRefusedError(`case ${into.id} was merged into case ${intoMerged}: merge into that one`, 'into');
  if (merged.mode !== into.mode) throw new MergeRefusedError('a test case and a live case cannot be merged', 'into');
  merged.note('merged_into', actor, { case_id: into.id });
  merged.moveTo(CLOSED, rules, actor, { outcome: MERGED_OUTCOME });
  into.note('merged_from', actor, { case_id: merged.id });
}
