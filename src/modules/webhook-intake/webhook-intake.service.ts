import { Injectable } from '@nestjs/common';
import { AppError, InvalidRequestError } from '../../shared/errors/app-error.js';
import { UnparseableBody } from '../../shared/http/json-body-parser.js';
import { unstorableNumber } from '../../shared/json/json-numbers.js';
import { isPlainObject } from '../../shared/json/json-text.js';
import { AttributesInvalidError } from '../cases/domain/case.errors.js';
import { Case } from '../cases/domain/case.js';
import { CaseMetrics } from '../cases/infrastructure/case-metrics.js';
import { CaseRepository } from '../cases/domain/case.repository.js';
import type { WorkflowVersion } from '../workflows/domain/workflow-version.js';

export const MAX_TOP_LEVEL_KEYS = 1000;

export class TooManyKeysError extends AppError {
  readonly code = 'request.too_many_keys';
  constructor() {
    super(`the JSON object has more than ${MAX_TOP_LEVEL_KEYS} top-level keys`);
  }
}

@Injectable()
export class WebhookIntakeService {
  constructor(private readonly cases: CaseRepository, private readonly metrics: CaseMetrics) {}

  /**
   * Any JSON object becomes a live case whose attributes are exactly the posted text. The case
   * and its pending run are committed before this returns; the run itself happens later.
   */
  async receive(organizationId: number, version: WorkflowVersion, body: unknown, text: string | null): Promise<number> {
    if (body instanceof UnparseableBody) throw new InvalidRequestError(body.reason);
    if (!isPlainObject(body) || text === null) throw new InvalidRequestError('the request body must be a JSON object');
    if (Object.keys(body).length > MAX_TOP_LEVEL_KEYS) throw new TooManyKeysError();
    const tooLarge = unstorableNumber(text);
    if (tooLarge) throw new AttributesInvalidError([tooLarge]);
    const problems = version.attributeSchema.check(body);
    if (problems.length) throw new AttributesInvalidError(problems);
    const draft = Case.open(
      {
        organizationId,
        workflowId: version.workflowId,
        workflowVersion: version.version,
        workflowName: version.name,
        mode: 'live',
        source: 'Webhook',
        attributes: text,
        actor: { kind: 'webhook' },
      },
      version,
      new Date(),
    );
    const id = await this.cases.createReturningId(draft);
    this.metrics.caseCreated('Webhook', 'live');
    return id;
  }
}
