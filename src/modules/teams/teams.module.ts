import { Global, Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { CaseWorkDirectory } from '../cases/application/case-work.ports.js';
import { PeopleModule } from '../people/people.module.js';
import { TeamCaseWorkDirectory } from './application/team-case-work-directory.js';
import { TeamStore } from './application/team-store.js';
import { TeamsService } from './application/teams.service.js';
import { TeamsController } from './http/teams.controller.js';
import { PostgresTeamStore } from './infrastructure/postgres-team-store.js';

/**
 * Teams of people who work cases (casework.md, section 2). Global: it binds the cases module's
 * CaseWorkDirectory, which the cases module cannot import without a cycle (teams asks cases to
 * drop a deleted team from its cases).
 */
@Global()
@Module({
  imports: [PeopleModule, CasesModule],
  controllers: [TeamsController],
  providers: [
    TeamsService,
    { provide: TeamStore, useClass: PostgresTeamStore },
    { provide: CaseWorkDirectory, useClass: TeamCaseWorkDirectory },
  ],
  exports: [CaseWorkDirectory, TeamStore],
})
export class TeamsModule {}
