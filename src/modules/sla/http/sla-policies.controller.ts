import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBody, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { SlaPoliciesService } from '../application/sla-policies.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const policyAnswer = (description: string) => ({ status: 200 as const, description, schema: wrapped('sla_policy', schemaRef('SlaPolicy')) });
const WORKFLOW_NOT_FOUND = 'The workflow does not exist or belongs to another organization';

/** A workflow's service-level targets (sla.md section 2). */
@Controller('api/admin/v1/workflows/:workflowId/sla')
@RequiresRole('admin')
@ApiTags('Service levels')
@ApiSecurity('adminToken')
export class SlaPoliciesController {
  constructor(private readonly policies: SlaPoliciesService) {}

  @Put()
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'putSlaPolicy',
    summary: 'Set a workflow\'s SLA policy',
    description: [
      'Targets per priority (`low`, `normal`, `high`, `urgent`) for the clocks `first_response` (creation to the first public reply), `next_response` (a requester\'s message to the next public reply) and `resolution` (creation to Closed; a reopen runs it on from where it stopped), as ISO 8601 durations counted in the calendar\'s business hours: `P…D` whole business days (the next business day\'s same business-time position, the day\'s close when that day is shorter; under `24x7`, 24 hours), `PT…H…M…S` business time. Time in a `pause_statuses` status, or Closed, does not count.',
      'The policy applies to live cases created after it was first set, under their current priority.',
    ],
    success: policyAnswer('The policy as stored.'),
    errors: { 404: WORKFLOW_NOT_FOUND, 422: 'Nothing was stored: `invalid request body` with every problem in `validation_errors`: no calendar of that name; an unknown priority or clock; a duration that is not a positive `P…D` / `PT…H…M…S` of at most 366 days and 8,784 hours; no target at all; a pause status not declared on the workflow\'s current definition (its draft), or listed twice; an unknown key.' },
  })
  @ApiBody({ schema: schemaRef('SlaPolicySettings'), required: true })
  async put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() workflowId: number, @Body() body: unknown) {
    return { sla_policy: await this.policies.put(by, caller.organizationId, workflowId, body) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'getSlaPolicy',
    summary: 'Get a workflow\'s SLA policy',
    description: BODY_IGNORED,
    success: policyAnswer('The policy.'),
    errors: { 404: `${WORKFLOW_NOT_FOUND}, or it has no SLA policy.` },
  })
  async get(@Principal() caller: Caller, @WorkflowId() workflowId: number) {
    return { sla_policy: await this.policies.get(caller.organizationId, workflowId) };
  }

  @Delete()
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteSlaPolicy',
    summary: 'Delete a workflow\'s SLA policy',
    description: `Its cases have no clocks from then on. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: `${WORKFLOW_NOT_FOUND}, or it has no SLA policy.` },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() workflowId: number) {
    await this.policies.delete(by, caller.organizationId, workflowId);
  }
}
