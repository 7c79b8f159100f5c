import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { SenderScheme, type SenderSchemeDefinition } from '../../../extension-api/index.js';
import { discoverNamed } from '../../extensions/named-registry.js';
import type { SignatureCheck } from '../domain/signature-schemes.js';
import type { SchemeRules, StoredVerificationOptions } from '../domain/webhook-verification.js';

const SCHEME_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Every sender scheme of the service, built-in and extensions', by name; found once at start. */
@Injectable()
export class SenderSchemeRegistry implements OnModuleInit {
  private schemes: ReadonlyMap<string, SenderSchemeDefinition> = new Map();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.schemes = discoverNamed<SenderSchemeDefinition>(this.discovery, SenderScheme, 'sender scheme', (scheme) => scheme.name);
    for (const [name, scheme] of this.schemes) {
      if (!SCHEME_NAME.test(name)) throw new Error(`the sender scheme ${scheme.constructor.name} is named "${name}": a scheme's name is 1 to 40 lower-case letters, digits and underscores`);
    }
  }

  /** What the settings API checks a body against. */
  get rules(): ReadonlyMap<string, SchemeRules> {
    return this.schemes;
  }

  /**
   * The check of stored settings. A scheme no longer registered (its extension removed) lets
   * nothing in: the workflow asked for signed requests, and none can be verified now.
   */
  check(stored: StoredVerificationOptions, secret: string): SignatureCheck {
    const { scheme: name, ...options } = stored;
    const scheme = this.schemes.get(name);
    if (!scheme) return () => false;
    const verify = scheme.verifier(options, secret);
    return (header, body, nowSeconds) => verify({ header, body, nowSeconds });
  }
}
