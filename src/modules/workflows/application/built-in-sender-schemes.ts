import { Injectable, type Type } from '@nestjs/common';
import { SenderScheme, type SenderSchemeDefinition, type SenderSchemeOption, type SenderSchemeOptions, type SignatureVerifier } from '../../../extension-api/index.js';
import { signatureCheck, type VerificationOptions } from '../domain/signature-schemes.js';
import { BUILT_IN_SCHEME_RULES, type SchemeRules } from '../domain/webhook-verification.js';

/**
 * A scheme the service ships (integrations.md §2), registered through the same decorator as an
 * extension's: its settings rules and its check come from the domain. The class is named after
 * the scheme (`githubSenderScheme`), as a clash message names it.
 */
function builtInSenderScheme(rules: SchemeRules): Type<SenderSchemeDefinition> {
  @SenderScheme()
  @Injectable()
  class BuiltInSenderScheme implements SenderSchemeDefinition {
    readonly name = rules.name;
    readonly options = rules.options as SenderSchemeOption[];

    settle(options: SenderSchemeOptions, secret: string) {
      return rules.settle(options, secret);
    }

    verifier(options: SenderSchemeOptions, secret: string): SignatureVerifier {
      const check = signatureCheck({ scheme: rules.name, ...options } as VerificationOptions, secret);
      return (request) => check((name) => request.header(name), request.body, request.nowSeconds);
    }
  }
  Object.defineProperty(BuiltInSenderScheme, 'name', { value: `${rules.name}SenderScheme` });
  return BuiltInSenderScheme;
}

/** github, stripe, slack, standard_webhooks and hmac, as providers. */
export const BUILT_IN_SENDER_SCHEMES = BUILT_IN_SCHEME_RULES.map(builtInSenderScheme);
