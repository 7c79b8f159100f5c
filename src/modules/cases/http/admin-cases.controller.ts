import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { RequiresToken } from '../../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../../tokens/principal.js';
import { Principal } from '../../tokens/principal.decorator.js';
import { CaseQueriesService } from '../application/case-queries.service.js';
import { caseJson, JSON_CONTENT_TYPE } from './case.response.js';
import { ListCasesRequest } from './list-cases.request.js';

const DEFAULT_PAGE_SIZE = 25;
const CaseId = () => Param('caseId', new IdParamPipe('case'));

@Controller('api/admin/v1/cases')
@RequiresToken('admin')
export class AdminCasesController {
  constructor(private readonly queries: CaseQueriesService) {}

  @Get()
  @Header('content-type', JSON_CONTENT_TYPE)
  async list(@Principal() caller: Caller, @Query() query: ListCasesRequest) {
    const { cases, nextCursor } = await this.queries.list(caller.organizationId, {
      workflowId: query.workflow_id === undefined ? undefined : Number(query.workflow_id),
      status: query.status,
      mode: query.mode,
      source: query.source,
      limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
      before: query.cursor === undefined ? undefined : Number(query.cursor),
    });
    return `{"cases":[${cases.map((c) => caseJson(c, true)).join(',')}],"next_cursor":${nextCursor === null ? 'null' : `"${nextCursor}"`}}`;
  }

  @Get(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  async get(@Principal() caller: Caller, @CaseId() caseId: number) {
    return `{"case":${caseJson(await this.queries.get(caller.organizationId, caseId), true)}}`;
  }

  @Get(':caseId/timeline')
  async timeline(@Principal() caller: Caller, @CaseId() caseId: number) {
    return { events: await this.queries.timeline(caller.organizationId, caseId) };
  }
}
