import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { CaseWorkDirectory, type WorkTeam } from '../../cases/domain/case-work.ports.js';
import { UsersService } from '../../people/application/users.service.js';
import { TeamStore } from './team-store.js';

/** The cases module's directory of people and teams: people from the people module, teams from this one's store. */
@Injectable()
export class TeamCaseWorkDirectory extends CaseWorkDirectory {
  constructor(private readonly users: UsersService, private readonly store: TeamStore) {
    super();
  }

  workers(organizationId: number, userIds: readonly number[]): Promise<Map<number, string>> {
    return this.users.workers(organizationId, userIds);
  }

  async team(tx: Transaction, organizationId: number, teamId: number): Promise<WorkTeam | undefined> {
    const team = await this.store.find(tx, organizationId, teamId);
    return team && { id: team.id, name: team.name, memberIds: team.memberIds };
  }

  async names(organizationId: number, userIds: readonly number[], teamIds: readonly number[]): Promise<{ users: Map<number, string>; teams: Map<number, string> }> {
    const [users, teams] = await Promise.all([this.users.emails(organizationId, userIds), teamIds.length ? this.store.list(organizationId) : []]);
    const wanted = new Set(teamIds);
    return { users, teams: new Map(teams.filter((team) => wanted.has(team.id)).map((team) => [team.id, team.name])) };
  }
}
