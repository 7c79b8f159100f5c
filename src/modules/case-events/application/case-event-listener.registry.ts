import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { CASE_EVENT_TYPES, type CaseEventHandler, CaseEventListener } from '../../../extension-api/case-events.js';
import { discoverNamed } from '../../extensions/named-registry.js';

/** Every `@CaseEventListener()` provider, built-in or an extension's, by name, found at start. */
@Injectable()
export class CaseEventListenerRegistry implements OnModuleInit {
  private listeners: ReadonlyMap<string, CaseEventHandler> = new Map();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.listeners = discoverNamed<CaseEventHandler>(this.discovery, CaseEventListener, 'case-event listener', (listener) => listener.name);
    for (const listener of this.listeners.values()) {
      const unknown = listener.events.filter((type) => !(CASE_EVENT_TYPES as readonly string[]).includes(type));
      // A misspelt type would silently never match an event.
      if (unknown.length) throw new Error(`case-event listener "${listener.name}" wants unknown event types ${unknown.join(', ')}; known: ${CASE_EVENT_TYPES.join(', ')}`);
    }
  }

  names(): string[] {
    return [...this.listeners.keys()];
  }

  get(name: string): CaseEventHandler | undefined {
    return this.listeners.get(name);
  }

  all(): CaseEventHandler[] {
    return [...this.listeners.values()];
  }
}
