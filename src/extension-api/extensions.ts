import type { DynamicModule, Type } from '@nestjs/common';

/**
 * An extension is a Nest module. Its providers that carry one of the extension API's
 * decorators (a step type, a case source, a sender scheme, a case-event listener) are found
 * at start and registered next to the built-in ones, which carry the same decorators.
 */
export type ExtensionModule = Type<unknown> | DynamicModule;

/** What the service is started with, besides its environment: `createApp(env, logger, { extensions })`. */
export interface CaseIntakeOptions {
  extensions?: ExtensionModule[];
}
