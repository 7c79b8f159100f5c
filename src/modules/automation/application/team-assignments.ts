import type { Transaction } from '../../../shared/database/transaction.js';
import type { Assignment } from '../../cases/domain/case-work.js';

export type AssignStrategy = 'balanced' | 'round_robin';

/** Whom an `assign` step gives the case to, and who had it. */
export interface TeamPick {
  /** The case's assignment before the step, as people read it. */
  current: Assignment;
  /** The team of that name; null when the organization has none (renamed or deleted since the definition was saved). */
  team: { id: number; name: string } | null;
  /** The member picked; null when the team has no active member who may work cases. */
  assignee: { id: number; email: string } | null;
}

export interface PickRequest {
  team: string;
  strategy: AssignStrategy;
  store: boolean;
  /**
   * The cases `tx` gave to members before this pick (case id to user id), which it may not have
   * stored yet: counted for their new assignee instead of what `tx` reads of them.
   */
  earlier: ReadonlyMap<number, number>;
}

/**
 * The teams module's side of the `assign` step; bound by it. `pick` locks the team's row in
 * `tx` until it commits, so two runs assigning for one team at once pick one after the other,
 * each counting the other's assignment; with `store`, the member picked is marked as just
 * assigned (round_robin's turn). A test run passes `store: false` and stores nothing. Picks in
 * one transaction are made one after the other by the caller.
 */
export abstract class TeamAssignments {
  abstract pick(tx: Transaction, organizationId: number, request: PickRequest, current: { assigneeId: number | null; teamId: number | null }): Promise<TeamPick>;
}
