import { Injectable } from '@nestjs/common';
import { SenderScheme, type SenderSchemeDefinition, type SenderSchemeOption, type SenderSchemeOptions, type SignatureVerifier } from '../../../extension-api/index.js';
import { signatureCheck, type VerificationOptions } from '../domain/signature-schemes.js';
import { BUILT_IN_SCHEME_RULES, type SchemeRules } from '../domain/webhook-verification.js';

/**
 * A scheme the service ships (integrations.md §2), registered through the same decorator as an
 * extension's: its settings rules and its check come from the domain.
 */
abstract class BuiltInSenderScheme implements SenderSchemeDefinition {
  readonly name: string;
  readonly options: readonly SenderSchemeOption[];
  private readonly rules: SchemeRules;

  protected constructor(name: string) {
    this.rules = BUILT_IN_SCHEME_RULES.find((rules) => rules.name === name)!;
    this.name = name;
    this.options = this.rules.options as SenderSchemeOption[];
  }

  settle(options: SenderSchemeOptions, secret: string) {
    return this.rules.settle(options as Record<string, unknown>, secret);
  }

  verifier(options: SenderSchemeOptions, secret: string): SignatureVerifier {
    const check = signatureCheck({ scheme: this.name, ...options } as VerificationOptions, secret);
    return (request) => check((name) => request.header(name), request.body, request.nowSeconds);
  }
}

@SenderScheme()
@Injectable()
export class GithubSenderScheme extends BuiltInSenderScheme {
  constructor() {
    super('github');
  }
}

@SenderScheme()
@Injectable()
export class StripeSenderScheme extends BuiltInSenderScheme {
  constructor() {
    super('stripe');
  }
}

@SenderScheme()
@Injectable()
export class SlackSenderScheme extends BuiltInSenderScheme {
  constructor() {
    super('slack');
  }
}

@SenderScheme()
@Injectable()
export class StandardWebhooksSenderScheme extends BuiltInSenderScheme {
  constructor() {
    super('standard_webhooks');
  }
}

@SenderScheme()
@Injectable()
export class HmacSenderScheme extends BuiltInSenderScheme {
  constructor() {
    super('hmac');
  }
}

export const BUILT_IN_SENDER_SCHEMES = [GithubSenderScheme, StripeSenderScheme, SlackSenderScheme, StandardWebhooksSenderScheme, HmacSenderScheme];
