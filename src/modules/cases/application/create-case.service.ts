import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../../shared/errors/app-error.js';
import { unstorableNumber } from '../../../shared/json/json-numbers.js';
import { memberText } from '../../../shared/json/json-text.js';
import type { Principal } from '../../tokens/principal.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import { AttributesInvalidError } from '../domain/case.errors.js';
import { Case, type CaseMode, type CaseProps } from '../domain/case.js';
import { CaseRepository, type IdempotencyClaim } from '../domain/case.repository.js';
import { CaseMetrics } from '../infrastructure/case-metrics.js';
import { versionTakingApiCases } from './workflow-intake.js';

export interface CreateCaseInput {
  subject?: string | null;
  mode?: CaseMode;
  /** Parsed, for validation. */
  attributes: Record<string, unknown>;
  /** The exact request body, from which the attributes' text is stored. */
  bodyText: string | null;
  idempotencyKey?: string;
}

export class IdempotencyKeyReusedError extends AppError {
  readonly code = 'idempotency.key_reused';
  constructor() {
    super('this Idempotency-Key was used in the last 24 hours with a different request');
  }
}

@Injectable()
export class CreateCaseService {
  constructor(private readonly workflows: PublishedWorkflowsService, private readonly cases: CaseRepository, private readonly metrics: CaseMetrics) {}

  async execute(caller: Principal, workflowId: number, input: CreateCaseInput): Promise<{ case: CaseProps; replayed: boolean }> {
    const version = await versionTakingApiCases(this.workflows, caller.organizationId, workflowId);
    const claim: IdempotencyClaim | undefined = input.idempotencyKey
      ? { key: input.idempotencyKey, requestHash: createHash('sha256').update(`${workflowId}\n${input.bodyText ?? ''}`).digest() }
      : undefined;
    if (claim) {
      const earlier = await this.cases.findClaim(caller.organizationId, claim.key);
      if (earlier) return { case: await this.replay(caller, workflowId, claim, earlier), replayed: true };
    }

    // The attributes are stored as their exact text, so that text is what gets checked.
    const attributesText = (input.bodyText !== null && memberText(input.bodyText, 'attributes')) || '{}';
    const tooLarge = unstorableNumber(attributesText);
    if (tooLarge) throw new AttributesInvalidError([tooLarge]);
    const problems = version.attributeSchema.check(input.attributes);
    if (problems.length) throw new AttributesInvalidError(problems);

    const draft = Case.open(
      {
        organizationId: caller.organizationId,
        workflowId,
        workflowVersion: version.version,
        workflowName: version.name,
        subject: input.subject,
        mode: input.mode ?? 'live',
        source: 'API',
        attributes: attributesText,
        actor: { kind: 'api_token', tokenId: caller.tokenId },
      },
      version,
      new Date(),
    );
    const result = await this.cases.create(draft, claim);
    if ('created' in result) {
      this.metrics.caseCreated('API', result.created.mode);
      return { case: result.created, replayed: false };
    }
    return { case: await this.replay(caller, workflowId, claim!, result.claimedBy), replayed: true };
  }

  private async replay(caller: Principal, workflowId: number, claim: IdempotencyClaim, earlier: { caseId: number; requestHash: Buffer }): Promise<CaseProps> {
    if (!earlier.requestHash.equals(claim.requestHash)) throw new IdempotencyKeyReusedError();
    const original = await this.cases.find(caller.organizationId, workflowId, earlier.caseId);
    if (!original) throw new IdempotencyKeyReusedError();
    return original;
  }
}
