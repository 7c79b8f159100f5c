import { DiscoveryService } from '@nestjs/core';

/**
 * The options of the webhook verification settings API (`PUT .../webhook/verification`) a scheme
 * may take besides `scheme` and `secret`. The API checks each value's own rules (types, ranges,
 * header-name syntax) before the scheme sees it; a scheme lists the ones it takes, and any other
 * sent to it is a 422 at its pointer.
 */
export type SenderSchemeOptions = {
  /** How far a signed timestamp may be from the service's clock, either way: 1 to 3,600 s, 300 when not sent. */
  tolerance_seconds?: number;
  /** A request header name (1 to 100 token characters); stored in lower case. */
  header?: string;
  algorithm?: 'sha256' | 'sha512' | 'sha1';
  encoding?: 'hex' | 'base64';
  /** At most 64 characters. */
  prefix?: string;
};

export type SenderSchemeOption = keyof SenderSchemeOptions;

/** One refused setting: the JSON Pointer of the value in the settings body, and why. */
export interface SettingProblem {
  path: string;
  error: string;
}

/** A webhook request as a scheme sees it, before its body is parsed. */
export interface SignedRequest {
  /** A header by its lower-case name; a repeated header arrives joined by ", ". */
  header(name: string): string | undefined;
  /** The exact bytes of the body (empty when none was sent). */
  body: Buffer;
  /** The service's clock, in Unix seconds, for tolerance checks. */
  nowSeconds: number;
}

/** Whether a request's signature passes; must never throw on malformed input, and compare MACs in constant time. */
export type SignatureVerifier = (request: SignedRequest) => boolean;

/**
 * How one kind of webhook sender signs its requests (GitHub, Stripe, an in-house sender). A
 * workflow's admin picks it by `name` in the verification settings API; from then on every
 * webhook POST to that workflow is checked by `verifier` over the exact body bytes before the
 * body is parsed, and a request that fails is a 401 `signature verification failed`.
 */
export interface SenderSchemeDefinition {
  /** The settings API's `scheme`: 1 to 40 lower-case letters, digits and underscores; unique in the service (a clash stops the start). */
  readonly name: string;
  /** The options it takes. A scheme that checks a signed timestamp takes `tolerance_seconds` (its tolerance rule). */
  readonly options: readonly SenderSchemeOption[];
  /**
   * The options as stored and shown, with the scheme's own defaults filled in, and the problems
   * (422, every one at once) of settings it cannot use, such as a secret of the wrong form.
   * `tolerance_seconds` arrives already defaulted when the scheme takes it.
   */
  settle(options: SenderSchemeOptions, secret: string): { options: SenderSchemeOptions; problems: SettingProblem[] };
  /** The check for settled options and the secret; built once per workflow and cached with its state. */
  verifier(options: SenderSchemeOptions, secret: string): SignatureVerifier;
}

/** Marks a provider that implements SenderSchemeDefinition as a sender scheme (collected at start). */
export const SenderScheme = DiscoveryService.createDecorator();
