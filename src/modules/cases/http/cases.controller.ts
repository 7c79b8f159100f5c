import { Body, Controller, Get, Header, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { jsonText } from '../../../shared/http/json-body-parser.js';
import { RequiresToken } from '../../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../../tokens/principal.js';
import { Principal } from '../../tokens/principal.decorator.js';
import { ChangeCaseStatusService } from '../application/change-case-status.service.js';
import { CreateCaseService } from '../application/create-case.service.js';
import { GetCaseService } from '../application/get-case.service.js';
import { WorkflowIntake } from '../application/workflow-intake.js';
import { apiCaseCommand } from './case-commands.js';
import { caseResponse, JSON_CONTENT_TYPE } from './case.response.js';
import { ChangeStatusRequest } from './change-status.request.js';
import { CreateCaseRequest } from './create-case.request.js';
import { IdempotencyKey } from './idempotency-key.decorator.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const CaseId = () => Param('caseId', new IdParamPipe('case'));

@Controller('api/external/v1/workflows/:workflowId/cases')
@RequiresToken('api')
export class CasesController {
  constructor(
    private readonly createCase: CreateCaseService,
    private readonly getCase: GetCaseService,
    private readonly changeStatus: ChangeCaseStatusService,
    private readonly intake: WorkflowIntake,
  ) {}

  @Post()
  @Header('content-type', JSON_CONTENT_TYPE)
  async create(
    @Principal() caller: Caller,
    @WorkflowId() workflowId: number,
    @Body() body: CreateCaseRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    const workflow = await this.intake.forApi(caller.organizationId, workflowId);
    const result = await this.createCase.execute(apiCaseCommand(caller, workflow, body, jsonText(request), idempotencyKey));
    reply.status(201);
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return caseResponse(result.case);
  }

  @Get(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  async get(@Principal() caller: Caller, @WorkflowId() workflowId: number, @CaseId() caseId: number) {
    return caseResponse(await this.getCase.execute(caller, workflowId, caseId));
  }

  @Patch(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  async update(@Principal() caller: Caller, @WorkflowId() workflowId: number, @CaseId() caseId: number, @Body() body: ChangeStatusRequest) {
    return caseResponse(await this.changeStatus.execute(caller, workflowId, caseId, body.status));
  }
}
