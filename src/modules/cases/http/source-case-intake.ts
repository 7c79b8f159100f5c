import { Injectable } from '@nestjs/common';
import { CaseIntake, type CaseSourceDefinition, type IntakeWorkflow, type JsonText, type SourceCaseReceipt, type SourceCaseRequest } from '../../../extension-api/index.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { readJsonBody } from '../../../shared/http/json-body-parser.js';
import { SecretsService } from '../../secrets/application/secrets.service.js';
import { caseSourceOf, CaseSourceRegistry } from '../../workflows/application/case-source-registry.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { CreateCaseService, IDEMPOTENCY_KEY } from '../application/create-case.service.js';
import { checkCaseSubject } from './create-case.request.js';
import { objectAttributes } from './webhook-case.request.js';

/**
 * The extension API's CaseIntake: case sources create cases through CreateCaseService like the
 * built-in channels, on a workflow published with their `case_source`, as live cases answered
 * with their id (so they share intake transactions like webhook deliveries).
 */
@Injectable()
export class SourceCaseIntake extends CaseIntake {
  constructor(
    private readonly sources: CaseSourceRegistry,
    private readonly workflows: PublishedWorkflowsService,
    private readonly createCases: CreateCaseService,
    private readonly secrets: SecretsService,
  ) {
    super();
  }

  async publishedWorkflow(source: CaseSourceDefinition, workflowId: number): Promise<IntakeWorkflow | undefined> {
    const found = await this.published(source, workflowId);
    return found && { id: workflowId, organizationId: found.organizationId, name: found.version.name, version: found.version.version };
  }

  async organizationSecret(organizationId: number, name: string): Promise<string | undefined> {
    return (await this.secrets.resolve(organizationId, [name])).found[name];
  }

  requestBody(request: unknown): JsonText | undefined {
    return readJsonBody((request as { body?: unknown }).body);
  }

  async createCase(source: CaseSourceDefinition, request: SourceCaseRequest): Promise<SourceCaseReceipt> {
    const found = await this.published(source, request.workflowId);
    if (!found) throw new NotFoundError('workflow');
    const key = request.idempotencyKey;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw new InvalidRequestError('the idempotency key must be 1 to 255 printable ASCII characters');
    checkCaseSubject(request.subject);
    const attributes = objectAttributes(request.attributes, 'the case attributes must be a JSON object');
    const mode = request.mode ?? 'live';
    const { id, replayed } = await this.createCases.execute({
      source: source.sourceType,
      sourceLabel: source.label,
      organizationId: found.organizationId,
      workflow: found.version,
      subject: request.subject,
      mode,
      attributes,
      // Kept per source type, so a sender's ids never meet another source's (or the API's Idempotency-Keys).
      idempotency: key === undefined ? undefined : { key: `${source.sourceType}:${key}`, requestText: `${JSON.stringify([request.subject ?? null, mode])}${attributes.text}` },
      actor: { kind: 'case_source', sourceType: source.sourceType },
      answer: 'id',
    });
    return { caseId: id, replayed };
  }

  /** The workflow's published version when it takes `source`'s cases right now. */
  private async published(source: CaseSourceDefinition, workflowId: number): Promise<{ organizationId: number; version: WorkflowVersion } | undefined> {
    if (!this.sources.isRegistered(source)) throw new Error(`${source.constructor.name} is not a registered case source: decorate it with @CaseSource() and list it in its module's providers`);
    if (!Number.isSafeInteger(workflowId) || workflowId <= 0) return undefined;
    const state = await this.workflows.state(workflowId);
    if (!state?.published || state.current?.definition.case_source !== caseSourceOf(source)) return undefined;
    return { organizationId: state.organizationId, version: state.current };
  }
}
