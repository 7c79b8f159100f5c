import { DiscoveryService } from '@nestjs/core';

/**
 * Step types: what a workflow's automation can do. A step in a definition is a one-key object,
 * `{"<type>": <arguments>}`; its type checks the arguments when the definition is saved and
 * does the work when a run reaches it. The service's own steps (set_attributes, set_status,
 * close, http_request, wait, fail) are step types like any extension's.
 */

/** A JSON Schema (draft 2020-12 as Ajv reads it) of a step's arguments. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The case a run works on, as plain data: attributes as the steps before this one left them. */
export interface StepCase {
  readonly id: number;
  readonly workflow_id: number;
  readonly subject: string;
  readonly status: string;
  readonly mode: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

export interface GuardedHttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface GuardedHttpResponse {
  status: number;
  contentType: string | undefined;
  /** The body as text, at most 1 MB (a larger one fails the request). */
  text: string;
}

/**
 * The service's outbound HTTP client: private, loopback and link-local addresses are refused
 * after DNS resolution, on the address connected to, and redirects are not followed. A refusal
 * rejects with a message that does not say why (it reaches admins).
 */
export interface GuardedHttp {
  send(request: GuardedHttpRequest): Promise<GuardedHttpResponse>;
}

/** The organization's secrets a step asked for by name; `missing` names those that do not exist. */
export interface ResolvedSecrets {
  readonly found: Readonly<Record<string, string>>;
  readonly missing: readonly string[];
}

/** Log lines of the run, with its run and case ids; values of secrets the step resolved are masked. */
export interface StepLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface StepContext<A = unknown> {
  /** The step's arguments as the published definition holds them (templates not rendered). */
  readonly arguments: A;
  readonly case: StepCase;
  /** How many times this step ran before and asked for a retry (0 on the first attempt). */
  readonly attempt: number;
  /**
   * Renders `{{ case.* }}` and `{{ attributes.* }}` templates in every string of `value`, as
   * set_attributes does (a string that is one template keeps its value's JSON type). A
   * template that does not resolve fails the step with a message naming it.
   */
  render(value: unknown): unknown;
  /**
   * The organization's secrets by name. Their values are replaced by `[secret NAME]` in the
   * step's outcome (errors, notes) and its log lines; keep them out of attributes.
   */
  secrets(names: readonly string[]): Promise<ResolvedSecrets>;
  readonly http: GuardedHttp;
  readonly log: StepLog;
}

/** What the step wants done; the engine commits it together with the run's progress. */
export type StepOutcome =
  /** Nothing to store; go on with the next step (`note` goes to the case's timeline). */
  | { kind: 'next'; note?: Record<string, unknown> }
  /** Merge `attributes` into the case's (checked against the workflow's schema) and go on. */
  | { kind: 'change'; attributes: Record<string, unknown>; note?: Record<string, unknown> }
  /** Move the case to a declared status (with `outcome` when it is Closed): this run ends there. */
  | { kind: 'move'; status: string; outcome?: string }
  /** Go on with the next step after `seconds`; no worker waits meanwhile. */
  | { kind: 'wait'; seconds: number }
  /** Run this step again after `delayMs` (`attempt` tells how many tries came before). */
  | { kind: 'retry'; delayMs: number; error: string }
  /** Fail the run: the case is parked in Error with this reason. */
  | { kind: 'fail'; error: string }
  /**
   * Give the case to a member of the organization's team named `team`, chosen by `strategy`
   * (`balanced`: the fewest open cases, `round_robin`: in turn), and set `priority` when given;
   * the engine picks and assigns in the run's transaction. A team without an active member (or
   * none of that name) leaves the case unassigned, with a note on its timeline.
   */
  | { kind: 'assign'; team: string; strategy: 'balanced' | 'round_robin'; priority?: 'low' | 'normal' | 'high' | 'urgent' };

/** What a step type's own check gets, besides its arguments. */
export interface StepArgumentsCheck {
  /** Reports a problem at `path`, a JSON Pointer inside the arguments ('' for the arguments themselves). */
  report(path: string, error: string): void;
  /** The workflow's statuses, defaults included. */
  readonly statuses: ReadonlySet<string>;
}

/**
 * A step type. Implement it in a class, mark the class `@StepType()` and list it among your
 * module's providers (it can inject your own providers).
 */
export interface StepTypeDefinition<A = unknown> {
  /** The step's key in a definition, e.g. `open_ticket`; unique across the service and its extensions. */
  readonly type: string;
  /** The arguments' JSON Schema: the definition validator, the builder and /openapi.json learn the step from it. */
  readonly argumentsSchema: JsonSchema;
  /**
   * Talks to the outside world: runs outside any database transaction, and only its outcome is
   * committed. A crash before that runs it again, so make such steps safe to repeat.
   */
  readonly external?: boolean;
  /**
   * Checks a schema cannot express (a status that must be declared, where templates may
   * stand). Called for every step of this type, also when the schema refused its arguments
   * (so trust no shape here): then the problems it reports stand in for the schema's, which
   * lets a type word them its own way.
   */
  check?(args: A, helpers: StepArgumentsCheck): void;
  run(context: StepContext<A>): Promise<StepOutcome>;
}

/** Marks a provider as a step type (it must implement {@link StepTypeDefinition}). */
export const StepType = DiscoveryService.createDecorator<unknown>();
