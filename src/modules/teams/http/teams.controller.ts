import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { TeamsService } from '../application/teams.service.js';
import { ChangeTeamRequest, CreateTeamRequest } from './team.requests.js';

const TeamId = () => Param('teamId', new IdParamPipe('team'));
const MEMBERS_REFUSED = '`member_ids` names a user who is not an active user of the organization with a role of `agent` or stronger (`validation_errors` points at each)';

@Controller('api/admin/v1/teams')
@RequiresRole('admin')
@ApiTags('Teams')
@ApiSecurity('adminToken')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createTeam',
    summary: 'Create a team',
    description: 'A team of people who work cases together: cases are given to it (and to one of its members) by hand or by an `assign` step.',
    success: { status: 201, description: 'The team.', schema: wrapped('team', schemaRef('Team')) },
    errors: { 422: `\`name\` missing, blank or over 200 characters, or the name of another team of the organization (whatever the case); ${MEMBERS_REFUSED}; an unsupported key.` },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: CreateTeamRequest) {
    return { team: await this.teams.create(by, caller.organizationId, body.name, body.member_ids) };
  }

  @Get()
  @RequiresRole('agent')
  @ApiEndpoint({
    operationId: 'listTeams',
    summary: 'List teams',
    description: 'The organization\'s teams with their members, oldest first.',
    success: { status: 200, description: 'The teams.', schema: listOf('teams', 'Team') },
  })
  async list(@Principal() caller: Caller) {
    return { teams: await this.teams.list(caller.organizationId) };
  }

  @Patch(':teamId')
  @ApiEndpoint({
    operationId: 'changeTeam',
    summary: 'Rename a team or change its members',
    description: '`member_ids` replaces the members. Cases already given to someone who leaves the team keep their assignee.',
    success: { status: 200, description: 'The team after the change.', schema: wrapped('team', schemaRef('Team')) },
    errors: { 404: 'No such team in the organization.', 422: `A name taken by another team, blank or too long; ${MEMBERS_REFUSED}; an unsupported key.` },
  })
  async change(@Principal() caller: Caller, @ChangeAuthor() by: Author, @TeamId() teamId: number, @Body() body: ChangeTeamRequest) {
    return { team: await this.teams.change(by, caller.organizationId, teamId, { name: body.name, memberIds: body.member_ids }) };
  }

  @Delete(':teamId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteTeam',
    summary: 'Delete a team',
    description: `The team's cases lose their team and keep their assignee; each gets an \`assigned\` timeline row by whoever deleted it (subscriptions are told no \`case.assigned\`). ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: 'No such team in the organization.' },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @TeamId() teamId: number) {
    await this.teams.delete(by, caller.organizationId, teamId);
  }
}
