import { StepType, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';
import { PRIORITIES } from '../../../cases/domain/case-work.js';

export const ASSIGN_STRATEGIES = ['balanced', 'round_robin'] as const;

interface AssignArguments {
  team: string;
  strategy: (typeof ASSIGN_STRATEGIES)[number];
  priority?: (typeof PRIORITIES)[number];
}

/**
 * `{"assign": {"team": "<team name>", "strategy": "balanced" | "round_robin", "priority"?}}`
 * (casework.md, section 2). That the team exists is checked when the definition is saved (the
 * workflows module asks the teams module); the engine picks the member.
 */
@StepType()
export class AssignStep implements StepTypeDefinition<AssignArguments> {
  readonly type = 'assign';
  readonly argumentsSchema = {
    type: 'object',
    properties: {
      team: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'The name of a team of the organization.' },
      strategy: { enum: [...ASSIGN_STRATEGIES], description: '`balanced`: the active member with the fewest open cases assigned, ties by the longest since their last assignment; `round_robin`: the active members in turn.' },
      priority: { enum: [...PRIORITIES], description: 'The case\'s new priority, set with the assignment.' },
    },
    required: ['team', 'strategy'],
    additionalProperties: false,
    description: 'Gives the case to a member of a team (and sets its priority when given); a team without an active member leaves it unassigned, noted on its timeline.',
  };

  async run({ arguments: args }: StepContext<AssignArguments>): Promise<StepOutcome> {
    return { kind: 'assign', team: args.team, strategy: args.strategy, ...(args.priority ? { priority: args.priority } : {}) };
  }
}
