import { DiscoveryService } from '@nestjs/core';
import { proofParameter } from '../shared/http/authenticated-requests.js';
import { RequiresCredential } from '../shared/http/route-credentials.js';

/**
 * A way cases come in: the cases API, the incoming webhook, email, the hosted form, or an
 * extension's own (a message bus, a partner's API). The provider that carries `@CaseSource()`
 * describes it; its routes declare `@RequiresSourceCredential` (its `authenticate` checks their
 * callers) and create cases through `CaseIntake`, which gives them everything the built-in
 * sources get: attribute validation against the workflow, the size and number rules,
 * idempotency, the exact JSON text, shared intake transactions and the case-created events.
 */
export interface CaseSourceDefinition {
  /**
   * What its cases show as `source_type` (case lists, the admin API, reports, the dashboard), and,
   * unless `caseSource` says otherwise, the workflow definition's `case_source` that routes a
   * workflow's cases to it. 1 to 40 letters, digits and underscores, starting with a letter;
   * unique among every source of the service (a clash stops the start).
   */
  readonly sourceType: string;
  /** How people read it, e.g. "Ticket bus": the default subject of its cases is `<workflow> via <label> - <time> UTC`. */
  readonly label: string;
  /**
   * The `case_source` of the workflows it takes cases for, when several sources share one (the
   * built-in `API` and `Webhook` both take `direct` workflows' cases). Defaults to `sourceType`.
   */
  readonly caseSource?: string;
  /**
   * Checks the caller of a route declared with `@RequiresSourceCredential(sourceType)`, before
   * the body is read (a caller with a bad credential never costs a parse): answer what the
   * credential proves (the workflow it opens, say), which the handler gets as
   * `@SourceCredentialProof()`, or undefined to refuse the request with a 401. A check that needs
   * the body (a signature over it) finishes in the handler.
   */
  authenticate?(request: SourceCredentialRequest): Promise<unknown>;
}

/** What a source's credential check sees of the request: no body yet. */
export interface SourceCredentialRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: Readonly<Record<string, unknown>>;
}

/**
 * Declares that a route (or every route of a controller) is a way in of the case source
 * `sourceType`, authenticated by that source's `authenticate`: the same one declaration that
 * drives every route's credential check and guard in the service.
 */
export const RequiresSourceCredential = (sourceType: string): ClassDecorator & MethodDecorator => RequiresCredential({ kind: 'source', sourceType });

/** A handler parameter: what the route's source answered from `authenticate` for this request. */
export const SourceCredentialProof = proofParameter<unknown>('source');

/** Marks a provider that implements CaseSourceDefinition as a case source (collected at start). */
export const CaseSource = DiscoveryService.createDecorator();

/** A published workflow that takes a source's cases right now. */
export interface IntakeWorkflow {
  id: number;
  organizationId: number;
  name: string;
  /** The published version new cases start on. */
  version: number;
}

/** A JSON value with the exact text it was read from: the text is what is stored, so no number or key is altered. */
export interface JsonText {
  value: unknown;
  text: string;
}

/** One case a source asks for. Errors come back as the service's JSON errors (422 `attributes_validation_failed`, 413, ...). */
export interface SourceCaseRequest {
  /** A workflow `publishedWorkflow` found for this source (checked again, from the same cache). */
  workflowId: number;
  /** A JSON object: its top-level keys are the case's attributes, checked against the workflow's declarations. */
  attributes: JsonText;
  /** Null or blank for the default `<workflow> via <label> - <time> UTC`; checked as the cases API checks its `subject` (at most 1,000 characters, well-formed text), a 422 at `/subject`. */
  subject?: string | null;
  /** `live` unless given. */
  mode?: 'live' | 'test';
  /**
   * The sender's own id of what it sends (a message id): a second request with the same key and
   * the same attributes within 24 hours gets the first case back (`replayed`) instead of a new one;
   * with other attributes it is a 422 `idempotency.key_reused`. Keys are kept per source type.
   */
  idempotencyKey?: string;
}

export interface SourceCaseReceipt {
  caseId: number;
  /** True when the case already existed (an idempotent repeat): nothing was created. */
  replayed: boolean;
}

/**
 * What a case source injects to create cases; the service provides it to every module. Sources
 * check their callers' credentials before calling `createCase` (see docs/extending.md).
 */
export abstract class CaseIntake {
  /**
   * The workflow `workflowId` if it is published with this source's `case_source`; undefined
   * otherwise (unknown, unpublished, or taking another source's cases), which a source answers
   * like a bad credential, so callers cannot probe for workflows.
   */
  abstract publishedWorkflow(source: CaseSourceDefinition, workflowId: number): Promise<IntakeWorkflow | undefined>;

  /** The value of the organization's secret `name` (set through the secrets API), undefined when it has none. */
  abstract organizationSecret(organizationId: number, name: string): Promise<string | undefined>;

  /**
   * The JSON body of the current request as the service's parser read it, with its exact text
   * (a body that is not `application/json` was refused with 415, one over 1 MB with 413); throws
   * the 422 of a body that is not valid JSON, undefined when none was sent. `request` is the
   * handler's `@Req()`.
   */
  abstract requestBody(request: unknown): JsonText | undefined;

  /** Creates the case, stored with its pending run and its events before this returns. */
  abstract createCase(source: CaseSourceDefinition, request: SourceCaseRequest): Promise<SourceCaseReceipt>;
}
