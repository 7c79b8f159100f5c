import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import { WorkflowNotDirectError, WorkflowNotPublishedError } from '../../workflows/domain/workflow.errors.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';

/** The published version a caller of the cases API may create cases on: 404 outside its organization, 422 when it takes no API cases. */
export async function versionTakingApiCases(workflows: PublishedWorkflowsService, organizationId: number, workflowId: number): Promise<WorkflowVersion> {
  const state = await workflows.state(workflowId);
  if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
  if (!state.published || !state.current) throw new WorkflowNotPublishedError();
  if (!state.current.isDirect) throw new WorkflowNotDirectError();
  return state.current;
}
