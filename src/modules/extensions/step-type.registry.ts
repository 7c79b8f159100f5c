import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { StepType, type StepTypeDefinition } from '../../extension-api/step-types.js';
import { discoverNamed } from './named-registry.js';

/**
 * Every step type of the running service, built-in and extensions' alike, by name: the engine
 * runs steps through it, the definition validator and the API documents read their schemas.
 * Found once every provider exists: at module init, or at the first question before that
 * (the API document is built before the application's init).
 */
@Injectable()
export class StepTypeRegistry implements OnModuleInit {
  private found: ReadonlyMap<string, StepTypeDefinition> | undefined;

  constructor(private readonly discovery: DiscoveryService) {}

  /** A name clash stops the start here at the latest. */
  onModuleInit(): void {
    this.types();
  }

  get(type: string): StepTypeDefinition | undefined {
    return this.types().get(type);
  }

  all(): StepTypeDefinition[] {
    return [...this.types().values()];
  }

  private types(): ReadonlyMap<string, StepTypeDefinition> {
    return (this.found ??= discoverNamed<StepTypeDefinition>(this.discovery, StepType, 'step type', (t) => t.type));
  }
}
