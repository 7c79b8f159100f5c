import type { StepHandler } from './steps/step-handler.js';

export const STEP_HANDLER_REGISTRY = Symbol('STEP_HANDLER_REGISTRY');
export type StepHandlerRegistry = ReadonlyMap<string, StepHandler>;

export function stepHandlerRegistry(...handlers: StepHandler[]): StepHandlerRegistry {
  return new Map(handlers.map((h) => [h.type, h]));
}
