import type { StepOutcome } from '../../../extension-api/step-types.js';
import { CLOSED } from '../../workflows/domain/status-rules.js';

/**
 * The name a run's trace and a test run give what a step did: change, sent (a call was answered),
 * move, close, wait, retry, assign, fail (a `fail` step) or error (any other step failing). One test-run
 * attempt never retries, so its caller names a retry an error.
 */
export function stepOutcomeName(stepType: string, outcome: StepOutcome, sent: boolean): string {
  switch (outcome.kind) {
    case 'next':
    case 'change':
      return sent ? 'sent' : 'change';
    case 'move':
      return outcome.status === CLOSED ? 'close' : 'move';
    case 'wait':
    case 'retry':
      return outcome.kind;
    case 'fail':
      return stepType === 'fail' ? 'fail' : 'error';
    case 'assign':
      return 'assign';
  }
}
