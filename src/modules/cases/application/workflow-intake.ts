import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { WorkflowNotDirectError, WorkflowNotPublishedError } from '../../workflows/domain/workflow.errors.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';

/** Which published workflow version a source may create cases on (webhooks: see WebhookTokenCheck). */
@Injectable()
export class WorkflowIntake {
  constructor(private readonly workflows: PublishedWorkflowsService) {}

  /** For a caller of the cases API: 404 outside its organization, 422 when the workflow takes no API cases. */
  async forApi(organizationId: number, workflowId: number): Promise<WorkflowVersion> {
    const state = await this.workflows.state(workflowId);
    if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
    if (!state.published || !state.current) throw new WorkflowNotPublishedError();
    if (!state.current.isDirect) throw new WorkflowNotDirectError();
    return state.current;
  }
}
