import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { CaseSource, type CaseSourceDefinition } from '../../../extension-api/index.js';
import { discoverNamed } from '../../extensions/named-registry.js';
import { SOURCE_TYPE } from '../domain/workflow-definition.js';

/**
 * Every case source of the service, built-in and extensions', by `sourceType`; found once at
 * start. Workflows name the `case_source` of theirs, which several sources may share (the cases
 * API and the incoming webhook both take `direct` workflows' cases).
 */
@Injectable()
export class CaseSourceRegistry implements OnModuleInit {
  private sources: ReadonlyMap<string, CaseSourceDefinition> = new Map();
  /** The `case_source`s workflow definitions may name, the built-in ones first. */
  caseSources: readonly string[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.sources = discoverNamed<CaseSourceDefinition>(this.discovery, CaseSource, 'case source', (source) => source.sourceType);
    for (const [sourceType, source] of this.sources) {
      if (!SOURCE_TYPE.test(sourceType)) {
        throw new Error(`the case source ${source.constructor.name} has the source type "${sourceType}": a source type is 1 to 40 letters, digits and underscores, starting with a letter`);
      }
    }
    this.caseSources = [...new Set([...this.sources.values()].map(caseSourceOf))];
  }

  /** The source of `sourceType`; undefined when none is registered. */
  get(sourceType: string): CaseSourceDefinition | undefined {
    return this.sources.get(sourceType);
  }

  /** Whether `source` is the registered source of its type (and not a look-alike an extension made up). */
  isRegistered(source: CaseSourceDefinition): boolean {
    return this.sources.get(source.sourceType) === source;
  }
}

/** The workflows' `case_source` a source takes cases for. */
export function caseSourceOf(source: CaseSourceDefinition): string {
  return source.caseSource ?? source.sourceType;
}
