import { CloseStep } from './close.step.js';
import { FailStep } from './fail.step.js';
import { HttpRequestStep } from './http-request.step.js';
import { SetAttributesStep } from './set-attributes.step.js';
import { SetStatusStep } from './set-status.step.js';
import { WaitStep } from './wait.step.js';

/** Every step type the engine knows (`if` is control flow, compiled by run-program.ts). */
export const STEP_HANDLERS = [SetAttributesStep, SetStatusStep, CloseStep, HttpRequestStep, WaitStep, FailStep];
