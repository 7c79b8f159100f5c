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

  async names(organizationId: number, userIds: readonly number[], teamIds: readonly number[], tx?: Transaction): Promise<{ users: Map<number, string>; teams: Map<number, string> }> {
    const users = await this.users.emails(organizationId, userIds, tx);
    if (tx) {
      const named = await Promise.all(teamIds.map(async (id) => [id, await this.store.findName(tx, organizationId, id)] as const));
      return { users, teams: new Map(named.filter((entry): entry is readonly [number, string] => entry[1] !== undefined)) };
    }
    const wanted = new Set(teamIds);
    const teams = teamIds.length ? await this.store.list(organizationId) : [];
    return { users, teams: new Map(teams.filter((team) => wanted.has(team.id)).map((team) => [team.id, team.name])) };
  }
}
