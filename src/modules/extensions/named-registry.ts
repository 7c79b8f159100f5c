import type { DiscoveryService } from '@nestjs/core';
import type { DiscoverableDecorator } from '@nestjs/core/discovery/discovery-service.js';

/**
 * Every provider instance that carries `decorator`, by the name each gives itself. Built-in and
 * extension providers are found alike; two with the same name stop the start with a message
 * naming both, since silently picking one would run the other team's code under its name.
 */
export function discoverNamed<T>(discovery: DiscoveryService, decorator: DiscoverableDecorator<unknown>, kind: string, nameOf: (instance: T) => string): ReadonlyMap<string, T> {
  const found = new Map<string, T>();
  for (const wrapper of discovery.getProviders({ metadataKey: decorator.KEY })) {
    const instance = wrapper.instance as T | undefined;
    if (!instance) continue;
    const name = nameOf(instance);
    const earlier = found.get(name);
    if (earlier && earlier !== instance) {
      throw new Error(`two ${kind}s are named "${name}": ${className(earlier)} and ${className(instance)}; rename one of them`);
    }
    found.set(name, instance);
  }
  return found;
}

function className(instance: unknown): string {
  return (instance as { constructor?: { name?: string } }).constructor?.name ?? 'an anonymous provider';
}
