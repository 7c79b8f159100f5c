import { AppError, type ValidationProblem } from '../../../shared/errors/app-error.js';

export class WorkflowDefinitionInvalidError extends AppError {
  readonly code = 'workflow.definition_invalid';
  constructor(problems: ValidationProblem[]) {
    super('workflow_definition_invalid');
    this.details.validation_errors = problems;
  }
}

export class WorkflowNotDirectError extends AppError {
  readonly code = 'workflow.not_direct';
  constructor() {
    super('this workflow does not take cases from the API: its case source is not "direct"');
  }
}

export class WebhookUnavailableError extends AppError {
  readonly code = 'workflow.not_published';
  constructor() {
    super('an incoming webhook needs a published workflow whose case source is "direct"');
  }
}

export class WorkflowNotPublishedError extends AppError {
  readonly code = 'workflow.not_published';
  constructor() {
    super('this workflow is not published');
  }
}
