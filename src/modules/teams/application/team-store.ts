import type { Transaction } from '../../../shared/database/transaction.js';
import type { AssignStrategy } from '../../automation/application/team-assignments.js';
import type { Team } from '../domain/team.js';

/** Where teams and their members are kept; bound to the module's infrastructure. */
export abstract class TeamStore {
  /** The new team; undefined when the organization has a team of this name (any case). */
  abstract create(tx: Transaction, organizationId: number, name: string, memberIds: readonly number[]): Promise<Team | undefined>;
  /** Oldest first. */
  abstract list(organizationId: number): Promise<Team[]>;
  /** The team, under a row lock when `tx` is given (a change, an assignment). */
  abstract find(tx: Transaction | null, organizationId: number, id: number): Promise<Team | undefined>;
  /** The team of this name (any case), its row locked. */
  abstract findByName(tx: Transaction, organizationId: number, name: string): Promise<Team | undefined>;
  /** The team's name, read (not locked) in `tx`. */
  abstract findName(tx: Transaction, organizationId: number, id: number): Promise<string | undefined>;
  /** False when the new name is another team's, even one renamed so in a transaction that committed meanwhile (`tx` is then failed: throw). */
  abstract rename(tx: Transaction, organizationId: number, id: number, name: string): Promise<boolean>;
  /** The members become exactly these; those who stay keep when they were last assigned. */
  abstract setMembers(tx: Transaction, organizationId: number, id: number, memberIds: readonly number[]): Promise<void>;
  abstract delete(tx: Transaction, organizationId: number, id: number): Promise<void>;
  /**
   * Of the team's members among `candidates` (the locked team's active workers), the one an
   * assignment picks (see AssignStrategy), now marked as just assigned; undefined for none.
   * `openCases` counts each candidate's open assigned cases, for `balanced`.
   */
  abstract pick(tx: Transaction, organizationId: number, teamId: number, candidates: readonly number[], strategy: AssignStrategy, openCases: ReadonlyMap<number, number>, store: boolean): Promise<number | undefined>;
}
