import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../../shared/errors/app-error.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { checkNewCaseAttributes } from '../domain/new-case-attributes.js';
import { type Actor, Case, type CaseMode, type ReceivedMessage, type SourceType } from '../domain/case.js';
import { type CreateAnswer, type Created, CaseRepository, type DeliveryKey, type IdempotencyClaim } from '../domain/case.repository.js';
import { IntakeMetrics } from './intake-metrics.js';

/** A new case, from any source; the source's own checks (credentials, body shape) are done. */
export interface CreateCaseCommand<A extends CreateAnswer> {
  source: SourceType;
  /** How people read the source, for the default subject; the source type when absent. */
  sourceLabel?: string;
  organizationId: number;
  /** The published version the case starts on. */
  workflow: WorkflowVersion;
  subject?: string | null;
  mode: CaseMode;
  /** The attributes as parsed, for validation, and as their exact text, which is what is stored. */
  attributes: { value: Record<string, unknown>; text: string };
  /** The exact request text is part of the claim: the same key with another request is refused. */
  idempotency?: { key: string; requestText: string };
  /** A webhook delivery's key (the exact JSON text at its workflow's `webhook_dedup.key`): one case per key within the window. */
  dedup?: { key: string; windowSeconds: number };
  actor: Actor;
  /** The message the case comes from (email): its attachments and Message-ID are kept with the case. */
  message?: ReceivedMessage;
  /** The case opens without Open's run (mail a machine sent). */
  withoutRun?: boolean;
  /** What the caller answers with: the whole case, or its id only (nothing read back). */
  answer: A;
}

/** What an idempotency key may be: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export class IdempotencyKeyReusedError extends AppError {
  readonly code = 'idempotency.key_reused';
  constructor() {
    super('this Idempotency-Key was used in the last 24 hours with a different request');
  }
}

/** What `execute` did: created a case, or found the one an earlier request created (an Idempotency-Key replay, a duplicate delivery). */
export type CreateCaseOutcome<A extends CreateAnswer> = Created<A> & { replayed: boolean };

/** The one way a case comes into being, whatever its source. */
@Injectable()
export class CreateCaseService {
  constructor(private readonly cases: CaseRepository, private readonly metrics: IntakeMetrics) {}

  /** The case is stored with its pending run before this returns; the run itself happens later. */
  async execute<A extends CreateAnswer>(command: CreateCaseCommand<A>): Promise<CreateCaseOutcome<A>> {
    const { workflow, organizationId } = command;
    const claim: IdempotencyClaim | undefined = command.idempotency && {
      key: command.idempotency.key,
      requestHash: createHash('sha256').update(`${workflow.workflowId}\n${command.idempotency.requestText}`).digest(),
    };
    if (claim) {
      const earlier = await this.cases.findClaim(organizationId, claim.key);
      if (earlier) return this.replay(command, claim, earlier);
    }

    this.check(command);

    const draft = Case.open(
      {
        organizationId,
        workflowId: workflow.workflowId,
        workflowVersion: workflow.version,
        workflowName: workflow.name,
        subject: command.subject,
        mode: command.mode,
        source: command.source,
        sourceLabel: command.sourceLabel,
        attributes: command.attributes.text,
        actor: command.actor,
        message: command.message,
        withoutRun: command.withoutRun,
      },
      workflow,
      new Date(),
    );
    const delivery: DeliveryKey | undefined = command.dedup && {
      hash: createHash('sha256').update(command.dedup.key).digest(),
      windowSeconds: command.dedup.windowSeconds,
    };
    const result = await this.cases.create(draft, command.answer, claim, delivery);
    if ('created' in result) {
      this.metrics.caseCreated(command.source, command.mode);
      return { ...result.created, replayed: false };
    }
    if ('duplicateOf' in result) return this.earlier(command, result.duplicateOf);
    return this.replay(command, claim!, result.claimedBy);
  }

  /**
   * The attribute checks `execute` makes, without creating anything: for a source that creates
   * several cases from one input and must refuse it whole, before the first is created.
   */
  check(command: Pick<CreateCaseCommand<CreateAnswer>, 'workflow' | 'attributes'>): void {
    checkNewCaseAttributes(command.workflow, command.attributes);
  }

  private async replay<A extends CreateAnswer>(
    command: CreateCaseCommand<A>,
    claim: IdempotencyClaim,
    earlier: { caseId: number; requestHash: Buffer },
  ): Promise<CreateCaseOutcome<A>> {
    if (!earlier.requestHash.equals(claim.requestHash)) throw new IdempotencyKeyReusedError();
    return this.earlier(command, earlier.caseId);
  }

  /**
   * The case an earlier request created, answered as the caller asked: an id needs no read (the
   * key that names it goes with the case, see the retention purge).
   */
  private async earlier<A extends CreateAnswer>(command: CreateCaseCommand<A>, caseId: number): Promise<CreateCaseOutcome<A>> {
    if (command.answer === 'id') return { ...({ id: caseId } as Created<A>), replayed: true };
    const original = await this.cases.find(command.organizationId, command.workflow.workflowId, caseId);
    if (!original) throw new IdempotencyKeyReusedError();
    return { ...({ id: original.id, case: original } as Created<A>), replayed: true };
  }
}
