import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { adminActor } from '../../cases/http/case-actor.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseLinksService, type LinkView } from '../application/case-links.service.js';
import { MAX_LINKS_PER_CASE } from '../domain/case-link.js';
import { LinkCaseRequest } from './link-case.request.js';

const CaseId = () => Param('caseId', new IdParamPipe('case'));
const CASE_NOT_FOUND = 'The case does not exist or belongs to another organization.';

function linkJson(link: LinkView) {
  const other = link.otherCase;
  return {
    id: link.id,
    type: link.type,
    direction: link.direction,
    case: { id: other.id, subject: other.subject, status: other.status, outcome: other.outcome },
    created_at: link.createdAt.toISOString(),
  };
}

@Controller('api/admin/v1/cases')
@RequiresRole('agent')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class CaseLinksController {
  constructor(private readonly links: CaseLinksService) {}

  @Post(':caseId/links')
  @ApiEndpoint({
    operationId: 'linkCase',
    summary: 'Link a case to another',
    description: [
      `Links the case to \`case_id\`, another case of the organization: this case relates to, duplicates or blocks it. A pair of cases has at most one link of each type, whichever way it points: the same link again answers 200 with the existing one (a \`relates\` link is the same both ways), and a \`duplicates\` or \`blocks\` link the other way round is refused. A case takes part in at most ${MAX_LINKS_PER_CASE} links.`,
      'Both timelines get `linked` (`link_id`, `case_id`, `link_type`, `direction`). Audited as `case.linked`.',
    ],
    success: { status: 201, description: 'The new link, as this case sees it.', schema: wrapped('link', schemaRef('CaseLink')) },
    alsoAnswers: [{ status: 200, description: 'The link existed already: the existing one.', schema: wrapped('link', schemaRef('CaseLink')) }],
    errors: {
      404: 'The case or `case_id` does not exist or belongs to another organization.',
      422: `A body other than \`{"case_id", "type"}\`; the case itself; the link exists the other way round; or a case has ${MAX_LINKS_PER_CASE} links already.`,
    },
  })
  async link(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CaseId() caseId: number, @Body() body: LinkCaseRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const { link, created } = await this.links.link(by, adminActor(caller), caller.organizationId, caseId, body.case_id, body.type);
    reply.status(created ? 201 : 200);
    return { link: linkJson(link) };
  }

  @Get(':caseId/links')
  @RequiresRole('viewer')
  @ApiEndpoint({
    operationId: 'listCaseLinks',
    summary: 'List a case\'s links',
    description: `Anyone who reads cases reads their links. The case's links both ways, oldest first, each as this case sees it (\`direction\`), with the other case's id, subject, status and outcome; at most ${MAX_LINKS_PER_CASE}.`,
    success: { status: 200, description: 'The links.', schema: listOf('links', 'CaseLink') },
    errors: { 404: CASE_NOT_FOUND },
  })
  async list(@Principal() caller: Caller, @CaseId() caseId: number) {
    return { links: (await this.links.list(caller.organizationId, caseId)).map(linkJson) };
  }

  @Delete(':caseId/links/:linkId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'unlinkCase',
    summary: 'Remove a link of a case',
    description: `Removes the link, from either of its cases. Both timelines get \`unlinked\`. Audited as \`case.unlinked\`. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Removed; no body.' },
    errors: { 404: 'The case or the link does not exist, belongs to another organization, or the link is not one of this case.' },
  })
  async unlink(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CaseId() caseId: number, @Param('linkId', new IdParamPipe('link')) linkId: number) {
    await this.links.unlink(by, adminActor(caller), caller.organizationId, caseId, linkId);
  }
}
