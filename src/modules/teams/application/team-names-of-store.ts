import { Injectable } from '@nestjs/common';
import { TeamNames } from '../../workflows/application/team-names.js';
import { TeamStore } from './team-store.js';

/** The workflows module's view of team names, from the teams the organization has now. */
@Injectable()
export class TeamNamesOfStore extends TeamNames {
  constructor(private readonly store: TeamStore) {
    super();
  }

  async missing(organizationId: number, names: readonly string[]): Promise<string[]> {
    const existing = new Set((await this.store.list(organizationId)).map((team) => team.name.toLowerCase()));
    return names.filter((name) => !existing.has(name.toLowerCase()));
  }
}
