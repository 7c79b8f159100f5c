import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import type { StepOutcome } from '../../../extension-api/step-types.js';
import { assignedNotification, CaseNotifications } from '../../cases/application/case-notifications.js';
import type { Case } from '../../cases/domain/case.js';
import type { Run } from '../../cases/domain/run.js';
import { TeamAssignments, type TeamPick } from './team-assignments.js';

type AssignOutcome = Extract<StepOutcome, { kind: 'assign' }>;

/**
 * What an `assign` outcome does to the case, in the run's transaction: the team's member picked
 * under the team's lock becomes the assignee (an `assigned` row and `case.assigned` event by
 * the automation), the priority is set when asked; the step's note on the timeline says whom it
 * picked, or that nobody could be (the case then keeps its assignment and priority). The
 * assignee's notification is queued in that transaction too.
 */
@Injectable()
export class CaseAssigner {
  /**
   * The assignments each transaction made so far, and the last of them: one transaction runs
   * the work of many cases at once (CaseBatches), whose team lock does not order them, and
   * whose cases are stored only when their stretch ends.
   */
  private readonly made = new WeakMap<Transaction, { last: Promise<unknown>; assignees: Map<number, number> }>();

  constructor(private readonly teams: TeamAssignments, private readonly notifications: CaseNotifications) {}

  async assign(tx: Transaction, subject: Case, run: Run, outcome: AssignOutcome): Promise<void> {
    const made = this.made.get(tx) ?? { last: Promise.resolve(), assignees: new Map<number, number>() };
    this.made.set(tx, made);
    const picking = made.last.then(async () => {
      const picked = await this.pick(tx, subject, outcome, true, made.assignees);
      if (picked.assignee) made.assignees.set(subject.id, picked.assignee.id);
      return picked;
    });
    made.last = picking.catch(() => undefined);
    const picked = await picking;
    run.note('assign', noteOf(outcome, picked));
    if (!picked.team || !picked.assignee) return;
    const to = { assignee: picked.assignee, team: picked.team };
    subject.assign(picked.current, to, { kind: 'automation' });
    const told = assignedNotification(subject.organizationId, subject.id, picked.current, to, null);
    if (told) await this.notifications.notify(told, tx);
    if (outcome.priority) subject.prioritize(outcome.priority, { kind: 'automation' });
  }

  /** Whom the step would pick now, storing nothing (a test run, whose caller rolls `tx` back). */
  preview(tx: Transaction, subject: Case, outcome: AssignOutcome): Promise<TeamPick> {
    return this.pick(tx, subject, outcome, false, new Map());
  }

  private pick(tx: Transaction, subject: Case, outcome: AssignOutcome, store: boolean, earlier: ReadonlyMap<number, number>): Promise<TeamPick> {
    return this.teams.pick(tx, subject.organizationId, { team: outcome.team, strategy: outcome.strategy, store, earlier }, { assigneeId: subject.assigneeId, teamId: subject.teamId });
  }
}

/** The step's timeline note: the team and whom it got, or why nobody. */
export function noteOf(outcome: AssignOutcome, picked: TeamPick): Record<string, unknown> {
  if (!picked.team) return { team: outcome.team, assigned: null, reason: 'the organization has no team of this name' };
  if (!picked.assignee) return { team: outcome.team, assigned: null, reason: 'the team has no active member who may work cases' };
  return { team: picked.team.name, assigned: picked.assignee, strategy: outcome.strategy };
}
