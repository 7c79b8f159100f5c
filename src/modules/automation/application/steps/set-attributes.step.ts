import { Injectable } from '@nestjs/common';
import { render } from '../../domain/templates.js';
import { mergeIfValid } from './attribute-merge.js';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

@Injectable()
export class SetAttributesStep implements StepHandler {
  readonly type = 'set_attributes';

  async execute(arg: unknown, context: StepContext): Promise<StepOutcome> {
    return mergeIfValid(this.type, render(arg, context.scope) as Record<string, unknown>, context);
  }
}
