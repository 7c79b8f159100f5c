import { Global, Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { CaseWorkDirectory } from '../cases/domain/case-work.ports.js';
import { PeopleModule } from '../people/people.module.js';
import { TeamCaseWorkDirectory } from './application/team-case-work-directory.js';
import { TeamStore } from './application/team-store.js';
import { TeamCaseAssignments } from './application/team-case-assignments.js';
import { TeamAssignments } from '../automation/application/team-assignments.js';
import { TeamNames } from '../workflows/application/team-names.js';
import { TeamNamesOfStore } from './application/team-names-of-store.js';
import { TeamsService } from './application/teams.service.js';
import { TeamsController } from './http/teams.controller.js';
import { PostgresTeamStore } from './infrastructure/postgres-team-store.js';

/**
 * Teams of people who work cases (casework.md, section 2). Global: it binds the ports other
 * modules declare for it (the cases module's CaseWorkDirectory, the automation's
 * TeamAssignments, the workflows' TeamNames), which they cannot import without a cycle (teams
 * asks cases to drop a deleted team from its cases).
 */
@Global()
@Module({
  imports: [PeopleModule, CasesModule],
  controllers: [TeamsController],
  providers: [
    TeamsService,
    { provide: TeamStore, useClass: PostgresTeamStore },
    { provide: CaseWorkDirectory, useClass: TeamCaseWorkDirectory },
    { provide: TeamAssignments, useClass: TeamCaseAssignments },
    { provide: TeamNames, useClass: TeamNamesOfStore },
  ],
  exports: [CaseWorkDirectory, TeamAssignments, TeamNames],
})
export class TeamsModule {}
