import { Body, Controller, Header, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseWorkService } from '../application/case-work.service.js';
import { MergeCasesService } from '../application/merge-cases.service.js';
import { adminActor } from './case-actor.js';
import { adminCaseJson, JSON_CONTENT_TYPE } from './case.response.js';
import { MergeCaseRequest } from './merge-case.request.js';

@Controller('api/admin/v1/cases')
@RequiresRole('agent')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class CaseMergesController {
  constructor(private readonly merges: MergeCasesService, private readonly work: CaseWorkService) {}

  @Post(':caseId/merge')
  @HttpCode(200)
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'mergeCase',
    summary: 'Merge a case into another',
    description: [
      'Merges the case into `into`, a case of the same workflow and mode, and answers the target. The merged case moves to `Closed` with outcome `Merged` as any move does (recorded, `case.status_changed` and `case.closed` to subscriptions, the Closed run, if the workflow has one, starts and counts toward usage). Its timeline gets `merged_into` (`case_id`), the target\'s `merged_from` (`case_id`) followed by a copy of each of the merged case\'s email messages (`email_received` with `merged_from` and `received_at`), whose files the target\'s attachment route serves. Replies to the merged case\'s thread land on the target from then on, as do those of cases merged into it before.',
      'A merge is final: a case merged once is neither merged again nor merged into (422). Audited as `case.merged`.',
    ],
    success: { status: 200, description: 'The target case.', schema: wrapped('case', schemaRef('CaseWithSource')) },
    errors: {
      404: 'The case or `into` does not exist or belongs to another organization.',
      422: 'A body other than `{"into": <case id>}`; `into` is the case itself, of another workflow or mode, or a merged case; or the case was already merged.',
    },
  })
  async merge(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Param('caseId', new IdParamPipe('case')) caseId: number, @Body() body: MergeCaseRequest) {
    const target = await this.merges.merge(by, adminActor(caller), caller.organizationId, caseId, body.into);
    return `{"case":${adminCaseJson(await this.work.shown(caller.organizationId, target.id))}}`;
  }
}
