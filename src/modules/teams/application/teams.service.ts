import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { CaseAssignments } from '../../cases/domain/case-work.ports.js';
import { UsersService } from '../../people/application/users.service.js';
import { NotWorkersError, type Team, TeamNameTakenError, teamTarget } from '../domain/team.js';
import { TeamStore } from './team-store.js';

export interface TeamView {
  id: number;
  name: string;
  member_ids: number[];
  /** The members named, so that whoever may assign cases (an agent, who may not list users) can tell them apart. */
  members: { id: number; email: string }[];
  created_at: string;
}

/**
 * An organization's teams (casework.md, section 2): names unique per organization, members
 * active people who may work cases. Every change is audited in its transaction.
 */
@Injectable()
export class TeamsService {
  constructor(
    private readonly store: TeamStore,
    private readonly users: UsersService,
    private readonly cases: CaseAssignments,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  async create(by: ChangeAuthor, organizationId: number, name: string, memberIds: number[]): Promise<TeamView> {
    await this.checkMembers(organizationId, memberIds);
    return this.transactions.run(async (tx) => {
      const team = await this.store.create(tx, organizationId, name, memberIds);
      if (!team) throw new TeamNameTakenError();
      await this.audit.record(tx, { organizationId, by, action: 'team.created', target: teamTarget(team.id), summary: { name, member_ids: team.memberIds } });
      return (await this.views(organizationId, [team], tx))[0];
    });
  }

  async list(organizationId: number): Promise<TeamView[]> {
    return this.views(organizationId, await this.store.list(organizationId));
  }

  async change(by: ChangeAuthor, organizationId: number, id: number, change: { name?: string; memberIds?: number[] }): Promise<TeamView> {
    if (change.memberIds) await this.checkMembers(organizationId, change.memberIds);
    return this.transactions.run(async (tx) => {
      const team = await this.locked(tx, organizationId, id);
      const summary: Record<string, unknown> = {};
      if (change.name !== undefined && change.name !== team.name) {
        if (!(await this.store.rename(tx, organizationId, id, change.name))) throw new TeamNameTakenError();
        summary.name = { from: team.name, to: change.name };
      }
      if (change.memberIds) {
        await this.store.setMembers(tx, organizationId, id, change.memberIds);
        summary.member_ids = { from: team.memberIds, to: [...new Set(change.memberIds)].sort((a, b) => a - b) };
      }
      await this.audit.record(tx, { organizationId, by, action: 'team.changed', target: teamTarget(id), summary });
      return (await this.views(organizationId, [(await this.store.find(tx, organizationId, id))!], tx))[0];
    });
  }

  /**
   * The team's cases keep their assignee and lose the team, in the same transaction, each with
   * its timeline row. Its cases are locked before the team: a change of a case locks the case,
   * then its team, and the other order could wait for it in a circle (the name is read unlocked).
   * A change that gave a case to the team while its cases were moved committed before the team's
   * lock was granted, and none can after: a second pass, under that lock, moves what it left. A
   * transaction Postgres broke off as a deadlock's loser (a change of such a case, which locks it,
   * then waits for the team) runs again.
   */
  async delete(by: ChangeAuthor, organizationId: number, id: number): Promise<void> {
    await this.transactions.runRetryingConflicts(async (tx) => {
      const name = await this.store.findName(tx, organizationId, id);
      if (name === undefined) throw new NotFoundError('team');
      const moved = await this.cases.dropTeam(tx, organizationId, { id, name }, by);
      const team = await this.locked(tx, organizationId, id);
      const cases = moved + (await this.cases.dropTeam(tx, organizationId, { id, name: team.name }, by));
      await this.store.delete(tx, organizationId, id);
      await this.audit.record(tx, { organizationId, by, action: 'team.deleted', target: teamTarget(id), summary: { name: team.name, cases } });
    });
  }

  /** A member whose user was deleted since has no email: left out of `members`, kept in `member_ids` as stored. */
  private async views(organizationId: number, teams: Team[], tx?: Transaction): Promise<TeamView[]> {
    const emails = await this.users.emails(organizationId, [...new Set(teams.flatMap((team) => team.memberIds))], tx);
    return teams.map((team) => ({
      id: team.id,
      name: team.name,
      member_ids: team.memberIds,
      members: team.memberIds.flatMap((id) => (emails.has(id) ? [{ id, email: emails.get(id)! }] : [])),
      created_at: team.createdAt.toISOString(),
    }));
  }

  private async locked(tx: Transaction, organizationId: number, id: number): Promise<Team> {
    const team = await this.store.find(tx, organizationId, id);
    if (!team) throw new NotFoundError('team');
    return team;
  }

  private async checkMembers(organizationId: number, memberIds: number[]): Promise<void> {
    const workers = await this.users.workers(organizationId, memberIds);
    const refused = memberIds.flatMap((id, index) => (workers.has(id) ? [] : [{ index, id }]));
    if (refused.length) throw new NotWorkersError('/member_ids', refused);
  }
}
