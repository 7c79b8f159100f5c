import { AppError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { TOO_LARGE_TO_STORE } from './case-storage.js';

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

/** Attributes over CASE_STORAGE_BYTES: refused like a body over the limit (413). */
export class CaseTooLargeError extends AppError {
  readonly code = 'request.body_too_large';
  constructor() {
    super(`the attributes take ${TOO_LARGE_TO_STORE}`);
  }
}

/** A merge the rules refuse (casework.md, section 6); `into` when the target is at fault. */
export class MergeRefusedError extends AppError {
  readonly code = 'request.invalid';
  constructor(reason: string, atFault?: 'into') {
    super(reason);
    if (atFault) this.details.validation_errors = [{ path: `/${atFault}`, error: reason } satisfies ValidationProblem];
  }
}
