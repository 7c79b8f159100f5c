import { AssignStep } from './assign.step.js';
import { CloseStep } from './close.step.js';
import { FailStep } from './fail.step.js';
import { HttpRequestStep } from './http-request.step.js';
import { SetAttributesStep } from './set-attributes.step.js';
import { SetStatusStep } from './set-status.step.js';
import { WaitStep } from './wait.step.js';

/**
 * The service's own step types, registered as an extension's are (`@StepType()` providers);
 * `if` is control flow, compiled by run-program.ts.
 */
export const BUILT_IN_STEP_TYPES = [SetAttributesStep, SetStatusStep, CloseStep, HttpRequestStep, WaitStep, FailStep, AssignStep];
