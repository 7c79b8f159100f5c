import type { DynamicModule, Type } from '@nestjs/common';

/**
 * What an extension declares beside its module: the extension API version it was built for,
 * written as a literal (`'1.0.0'`), never as EXTENSION_API_VERSION, which at run time is the
 * service's own. A service whose API that version does not fit refuses to start (docs/extending.md).
 */
export interface ExtensionDeclaration {
  readonly apiVersion: string;
}

/**
 * An extension is a Nest module that declares its API version: a module class with a static
 * `apiVersion`, or a dynamic module object with an `apiVersion` field. Its providers that carry
 * one of the extension API's decorators (a step type, a case source, a sender scheme, a
 * case-event listener) are found at start and registered next to the built-in ones, which carry
 * the same decorators.
 */
export type ExtensionModule = (Type<unknown> & ExtensionDeclaration) | (DynamicModule & ExtensionDeclaration);

/** What the service is started with, besides its environment: `createApp(env, logger, { extensions })`. */
export interface CaseIntakeOptions {
  extensions?: ExtensionModule[];
}
