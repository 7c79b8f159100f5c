import { Injectable } from '@nestjs/common';
import { render } from '../templates.js';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

@Injectable()
export class SetAttributesStep implements StepHandler {
  readonly type = 'set_attributes';

  /** The merged attributes must still satisfy the workflow's schema; otherwise the run fails. */
  async execute(arg: unknown, { scope, version }: StepContext): Promise<StepOutcome> {
    const patch = render(arg, scope) as Record<string, unknown>;
    const merged = { ...scope.attributes, ...patch };
    const problems = version.attributeSchema.check(merged);
    if (problems.length) {
      return { kind: 'fail', error: `set_attributes: ${problems.map((p) => `${p.path || '/'} ${p.error}`).join('; ')}` };
    }
    const keys = Object.keys(patch);
    return { kind: 'change', apply: (subject) => subject.mergeAttributes(JSON.stringify(patch), keys, { kind: 'automation' }) };
  }
}
