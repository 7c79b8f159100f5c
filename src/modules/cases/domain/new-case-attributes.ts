import { UnstorableValueError } from '../../../shared/errors/app-error.js';
import { unstorableNumber } from '../../../shared/json/json-numbers.js';
import { hasUnstorableEscape } from '../../../shared/json/json-text.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { tooLargeToStore } from './case-storage.js';
import { AttributesInvalidError, CaseTooLargeError } from './case.errors.js';

/**
 * The checks a new case's attributes pass before anything is created, in the order they are
 * made: every intake channel, and a test run (which creates nothing), refuses them alike.
 */
export function checkNewCaseAttributes(workflow: Pick<WorkflowVersion, 'attributeSchema'>, attributes: { value: Record<string, unknown>; text: string }): void {
  if (tooLargeToStore(attributes.text)) throw new CaseTooLargeError();
  // Postgres would refuse them too, but only after the statement went out, with the others of its batch.
  if (hasUnstorableEscape(attributes.text)) throw new UnstorableValueError();
  const tooLarge = unstorableNumber(attributes.text);
  if (tooLarge) throw new AttributesInvalidError([tooLarge]);
  const problems = workflow.attributeSchema.check(attributes.value);
  if (problems.length) throw new AttributesInvalidError(problems);
}
