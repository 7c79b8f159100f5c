import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../../shared/errors/app-error.js';
import { unstorableNumber } from '../../../shared/json/json-numbers.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { AttributesInvalidError } from '../domain/case.errors.js';
import { type Actor, Case, type CaseMode, type CaseSource } from '../domain/case.js';
import { type CreateAnswer, type Created, CaseRepository, type IdempotencyClaim } from '../domain/case.repository.js';
import { IntakeMetrics } from './intake-metrics.js';

/** A new case, from any source; the source's own checks (credentials, body shape) are done. */
export interface CreateCaseCommand<A extends CreateAnswer> {
  source: CaseSource;
  organizationId: number;
  /** The published version the case starts on. */
  workflow: WorkflowVersion;
  subject?: string | null;
  mode: CaseMode;
  /** The attributes as parsed, for validation, and as their exact text, which is what is stored. */
  attributes: { value: Record<string, unknown>; text: string };
  /** The exact request text is part of the claim: the same key with another request is refused. */
  idempotency?: { key: string; requestText: string };
  actor: Actor;
  /** What the caller answers with: the whole case, or its id only (nothing read back). */
  answer: A;
}

export class IdempotencyKeyReusedError extends AppError {
  readonly code = 'idempotency.key_reused';
  constructor() {
    super('this Idempotency-Key was used in the last 24 hours with a different request');
  }
}

/** The one way a case comes into being, whatever its source. */
@Injectable()
export class CreateCaseService {
  constructor(private readonly cases: CaseRepository, private readonly metrics: IntakeMetrics) {}

  /** The case is stored with its pending run before this returns; the run itself happens later. */
  async execute<A extends CreateAnswer>(command: CreateCaseCommand<A>): Promise<Created<A> & { replayed: boolean }> {
    const { workflow, organizationId } = command;
    const claim: IdempotencyClaim | undefined = command.idempotency && {
      key: command.idempotency.key,
      requestHash: createHash('sha256').update(`${workflow.workflowId}\n${command.idempotency.requestText}`).digest(),
    };
    if (claim) {
      const earlier = await this.cases.findClaim(organizationId, claim.key);
      if (earlier) return this.replay(command, claim, earlier);
    }

    const tooLarge = unstorableNumber(command.attributes.text);
    if (tooLarge) throw new AttributesInvalidError([tooLarge]);
    const problems = workflow.attributeSchema.check(command.attributes.value);
    if (problems.length) throw new AttributesInvalidError(problems);

    const draft = Case.open(
      {
        organizationId,
        workflowId: workflow.workflowId,
        workflowVersion: workflow.version,
        workflowName: workflow.name,
        subject: command.subject,
        mode: command.mode,
        source: command.source,
        attributes: command.attributes.text,
        actor: command.actor,
      },
      workflow,
      new Date(),
    );
    const result = await this.cases.create(draft, command.answer, claim);
    if ('created' in result) {
      this.metrics.caseCreated(command.source, command.mode);
      return { ...result.created, replayed: false };
    }
    return this.replay(command, claim!, result.claimedBy);
  }

  private async replay<A extends CreateAnswer>(
    command: CreateCaseCommand<A>,
    claim: IdempotencyClaim,
    earlier: { caseId: number; requestHash: Buffer },
  ): Promise<Created<A> & { replayed: boolean }> {
    if (!earlier.requestHash.equals(claim.requestHash)) throw new IdempotencyKeyReusedError();
    const original = await this.cases.find(command.organizationId, command.workflow.workflowId, earlier.caseId);
    if (!original) throw new IdempotencyKeyReusedError();
    const created = (command.answer === 'case' ? { id: original.id, case: original } : { id: original.id }) as Created<A>;
    return { ...created, replayed: true };
  }
}
