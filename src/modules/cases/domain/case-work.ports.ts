import type { Transaction } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';

/** A team as assignment sees it. */
export interface WorkTeam {
  id: number;
  name: string;
  memberIds: number[];
}

/**
 * The people and teams a case may be given to, as the cases module asks for them; bound by the
 * teams module (which asks people for the users), so this module names neither table.
 */
export abstract class CaseWorkDirectory {
  /** Of `userIds`, the organization's active users with a role of `agent` or stronger, each with their email. */
  abstract workers(organizationId: number, userIds: readonly number[]): Promise<Map<number, string>>;
  /** The organization's team, its row locked in `tx` until the assignment commits; undefined when there is none. */
  abstract team(tx: Transaction, organizationId: number, teamId: number): Promise<WorkTeam | undefined>;
  /**
   * What people read for these ids, users by email and teams by name; deleted ones are missing.
   * Inside `tx` when given: a change holding the case's lock takes no second pool connection.
   */
  abstract names(organizationId: number, userIds: readonly number[], teamIds: readonly number[], tx?: Transaction): Promise<{ users: Map<number, string>; teams: Map<number, string> }>;
}

/** What the cases module answers of assignments to others (the teams module, an `assign` step, watching); bound in CasesModule. */
export abstract class CaseAssignments {
  /**
   * The case's assignee (who always counts as watching it, casework.md section 4); null when it
   * has none or is not the organization's. Inside `tx` when given (a change holding a lock takes no second pool connection).
   */
  abstract assigneeOf(organizationId: number, caseId: number, tx?: Transaction): Promise<number | null>;
  /**
   * A deleted team's cases lose it and keep their assignee, in the deletion's transaction, each
   * with an `assigned` timeline row by `by` (a team is no case's any more); how many. The cases
   * are locked first: a case given to the team meanwhile, by a change that had the team's lock,
   * may be left in it, for a pass made once the deletion holds that lock.
   */
  abstract dropTeam(tx: Transaction, organizationId: number, team: { id: number; name: string }, by: ChangeAuthor): Promise<number>;
  /** How many open (not `Closed`) cases each of these users has assigned, as `tx` sees them, but the cases `excluding`. */
  abstract openAssigned(tx: Transaction, organizationId: number, userIds: readonly number[], excluding: readonly number[]): Promise<Map<number, number>>;
}
