import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { type PickRequest, TeamAssignments, type TeamPick } from '../../automation/application/team-assignments.js';
import { CaseAssignments } from '../../cases/domain/case-work.ports.js';
import { UsersService } from '../../people/application/users.service.js';
import { TeamStore } from './team-store.js';

/**
 * The `assign` step's pick: under the team's row lock, among its members who may work cases
 * now, by the cases each has open (balanced) and when each was last given one. Every read is
 * made inside the run's transaction, which already holds the case's lock: no second pool
 * connection is taken meanwhile.
 */
@Injectable()
export class TeamCaseAssignments extends TeamAssignments {
  constructor(private readonly store: TeamStore, private readonly users: UsersService, private readonly cases: CaseAssignments) {
    super();
  }

  async pick(tx: Transaction, organizationId: number, request: PickRequest, current: { assigneeId: number | null; teamId: number | null }): Promise<TeamPick> {
    const team = await this.store.findByName(tx, organizationId, request.team);
    const had = await this.assignment(tx, organizationId, current);
    if (!team) return { current: had, team: null, assignee: null };
    const workers = await this.users.workers(organizationId, team.memberIds, tx);
    const candidates = [...workers.keys()];
    const open = request.strategy === 'balanced' && candidates.length ? await this.openCases(tx, organizationId, candidates, request.earlier) : new Map<number, number>();
    const chosen = candidates.length ? await this.store.pick(tx, organizationId, team.id, candidates, request.strategy, open, request.store) : undefined;
    return { current: had, team: { id: team.id, name: team.name }, assignee: chosen === undefined ? null : { id: chosen, email: workers.get(chosen)! } };
  }

  /** Each candidate's open cases: as stored, but the cases given earlier in `tx` counted for whom they were given to. */
  private async openCases(tx: Transaction, organizationId: number, candidates: number[], earlier: ReadonlyMap<number, number>): Promise<Map<number, number>> {
    const open = await this.cases.openAssigned(tx, organizationId, candidates, [...earlier.keys()]);
    for (const userId of earlier.values()) open.set(userId, (open.get(userId) ?? 0) + 1);
    return open;
  }

  private async assignment(tx: Transaction, organizationId: number, current: { assigneeId: number | null; teamId: number | null }): Promise<TeamPick['current']> {
    const email = current.assigneeId === null ? undefined : (await this.users.emails(organizationId, [current.assigneeId], tx)).get(current.assigneeId);
    const team = current.teamId === null ? undefined : await this.store.findName(tx, organizationId, current.teamId);
    return { assignee: email === undefined ? null : { id: current.assigneeId!, email }, team: team === undefined ? null : { id: current.teamId!, name: team } };
  }
}
