import { AppError, type ValidationProblem } from '../../../shared/errors/app-error.js';

export class StatusNotDeclaredError extends AppError {
  readonly code = 'case.status_not_allowed';
  constructor(status: string) {
    super(`status "${status}" is not declared on this workflow`);
  }
}

export class StatusReservedForEngineError extends AppError {
  readonly code = 'case.status_not_allowed';
  constructor() {
    super('status "Error" is set only by the workflow engine');
  }
}

export class AttributesInvalidError extends AppError {
  readonly code = 'attributes.validation_failed';
  constructor(problems: ValidationProblem[]) {
    super('attributes_validation_failed');
    this.details.validation_errors = problems;
  }
}
