import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { object, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseWatchingService } from '../application/case-watching.service.js';
import { type Commenter, CommentsService } from '../application/comments.service.js';
import { bodyProblem } from '../domain/comment.js';
import { CreateCommentRequest, ListCommentsRequest } from './comment.requests.js';
import { commentJson } from './comment.response.js';
import { personIdOf } from './person.js';

const CaseId = () => Param('caseId', new IdParamPipe('case'));
const CASE_NOT_FOUND = 'The case does not exist or belongs to another organization.';
const DEFAULT_PAGE_SIZE = 50;

@Controller('api/admin/v1/cases/:caseId')
@RequiresRole('agent')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class CommentsController {
  constructor(private readonly comments: CommentsService, private readonly watching: CaseWatchingService) {}

  @Post('comments')
  @HttpCode(201)
  @ApiEndpoint({
    operationId: 'createComment',
    summary: 'Comment on a case',
    description:
      'An internal note (the organization\'s people only: never mailed to the requester, never in an event\'s body, never in the cases API) or a public reply, mailed to the case\'s requester by the worker: for an email case the first message\'s sender and Cc (the service\'s own addresses left out), from the workflow\'s inbound address, in the same thread, so the answer comes back to this case; otherwise the address in the workflow\'s `requester_attribute`. The mail is queued with the comment and sent once, retried for an hour while the relay refuses it; `delivery.status` tells. Recorded on the timeline (`comment_added`, without the body), told to subscriptions (`case.commented`) and audited. `@<email>` of a person of the organization who may work cases (active, `agent` or stronger) in an internal note makes them a watcher and mails them; any other address is ignored.',
    success: { status: 201, description: 'The comment.', schema: wrapped('comment', schemaRef('Comment')) },
    errors: { 404: CASE_NOT_FOUND, 422: 'A body that is empty, over 64 KB or not text, an unknown `visibility`; or a public reply on a case whose requester is unknown.' },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CaseId() caseId: number, @Body() body: CreateCommentRequest) {
    const problem = bodyProblem(body.body);
    if (problem) throw new InvalidRequestError('the comment is not valid', [{ path: '/body', error: problem }]);
    const commenter: Commenter = {
      organizationId: caller.organizationId,
      userId: caller.kind === 'user' ? caller.userId : null,
      tokenId: caller.kind === 'token' ? caller.tokenId : null,
      name: caller.name,
      by,
    };
    return { comment: commentJson(await this.comments.post(commenter, caseId, body.body, body.visibility)) };
  }

  @Get('comments')
  @RequiresRole('viewer')
  @ApiEndpoint({
    operationId: 'listComments',
    summary: 'List a case\'s comments',
    description: 'Every comment, internal notes included (the organization\'s people read them all), oldest first, a page at a time: pass `next_cursor` back as `after`; it is null on the last page. Comments are only ever added at the end, so pages never repeat or skip one.',
    success: { status: 200, description: 'One page of comments.', schema: object({ comments: { type: 'array', items: schemaRef('Comment') }, next_cursor: { type: ['string', 'null'] } }) },
    errors: { 404: CASE_NOT_FOUND, 422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each).' },
  })
  async list(@Principal() caller: Caller, @CaseId() caseId: number, @Query() query: ListCommentsRequest) {
    const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
    const found = await this.comments.list(caller.organizationId, caseId, Number(query.after ?? 0), limit + 1);
    const page = found.slice(0, limit);
    return { comments: page.map(commentJson), next_cursor: found.length > limit ? String(page.at(-1)!.id) : null };
  }

  @Put('watchers/me')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'watchCase',
    summary: 'Watch a case',
    description: `The signed-in person watches the case: they are mailed when the requester replies, the case moves to \`Error\` or its SLA warns or breaches (see their notification preferences). Audited. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Watching.' },
    errors: { 404: CASE_NOT_FOUND, 422: 'The caller is an admin token, not a person.' },
  })
  async watch(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CaseId() caseId: number) {
    await this.watching.watch(caller.organizationId, caseId, personIdOf(caller), by, true);
  }

  @Delete('watchers/me')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'unwatchCase',
    summary: 'Stop watching a case',
    description: 'The signed-in person no longer watches the case (its assignee still counts as watching it). Audited.',
    success: { status: 204, description: 'Not watching.' },
    errors: { 404: CASE_NOT_FOUND, 422: 'The caller is an admin token, not a person.' },
  })
  async unwatch(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CaseId() caseId: number) {
    await this.watching.watch(caller.organizationId, caseId, personIdOf(caller), by, false);
  }
}
