import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Controller, type DynamicModule, Get, Post, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RouteConfig } from '@nestjs/platform-fastify';
import { pino } from 'pino';
import { TicketExtensionModule } from '../../examples/ticket-extension/src/ticket-extension.module.js';
import { AppModule } from '../../src/app.module.js';
import { validateEnv } from '../../src/shared/config/env.js';
import { CredentialGuard, declaredCredential } from '../../src/shared/http/authenticated-requests.js';
import { Public, PUBLIC_ROUTE, RequiresCredential, RequiresRole } from '../../src/shared/http/route-credentials.js';
import { createMetricsRegistry } from '../../src/shared/metrics/metrics.module.js';

/**
 * Authentication is expressed once, by each route's declaration: every route of every controller
 * either declares its credential (RequiresCredential, through `@RequiresToken` and its kin, which
 * also applies the guard enforcing it) or says it is open (`@Public()`). A route with neither
 * would be served to anyone without anybody having decided so.
 */

type ModuleEntry = Type | DynamicModule | { forwardRef: () => ModuleEntry };

/** Every controller of the module tree under `root`, static and dynamic modules alike. */
function controllersUnder(root: ModuleEntry): Set<Type> {
  const seen = new Set<unknown>();
  const controllers = new Set<Type>();
  const visit = (entry: ModuleEntry | undefined): void => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    if ('forwardRef' in entry) return visit(entry.forwardRef());
    const dynamic = 'module' in entry ? entry : undefined;
    const moduleClass = dynamic ? dynamic.module : (entry as Type);
    const listed = <T>(key: 'controllers' | 'imports', own: T[] | undefined): T[] => [...((Reflect.getMetadata(key, moduleClass) as T[] | undefined) ?? []), ...(own ?? [])];
    for (const controller of listed<Type>('controllers', dynamic?.controllers)) controllers.add(controller);
    for (const imported of listed<ModuleEntry>('imports', dynamic?.imports as ModuleEntry[] | undefined)) visit(imported);
  };
  visit(root);
  return controllers;
}

/** The route's path as Nest registers it: the controller's path and the handler's, without slashes at either end. */
function routePath(controller: Type, handler: object): string {
  const parts = [Reflect.getMetadata(PATH_METADATA, controller) as string | undefined, Reflect.getMetadata(PATH_METADATA, handler) as string | undefined];
  return parts.map((part) => (part ?? '').replace(/^\/+|\/+$/g, '')).filter((part) => part !== '').join('/');
}

/**
 * The routes of `controllers` that do not say, exactly once and enforced, how they authenticate;
 * and routes of the admin API that do not declare the role they need (`@RequiresRole`), which
 * the admin caller check enforces for tokens and sessions alike.
 */
function undeclaredRoutes(controllers: Iterable<Type>): string[] {
  const problems: string[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const route = `${controller.name}.${name}`;
      const declared = declaredCredential(handler) !== undefined;
      const open = Reflect.getMetadata(PUBLIC_ROUTE, handler) === true || Reflect.getMetadata(PUBLIC_ROUTE, controller) === true;
      const guards = [...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? []), ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [])];
      if (!declared && !open) problems.push(`${route} declares no credential and is not @Public()`);
      if (declared && open) problems.push(`${route} declares a credential and @Public()`);
      if (declared && !guards.includes(CredentialGuard)) problems.push(`${route} declares a credential no guard enforces (declare it with RequiresCredential)`);
      if (routePath(controller, handler).startsWith('api/admin/') && declaredCredential(handler)?.kind !== 'admin') problems.push(`${route} is an admin route that declares no role (@RequiresRole)`);
    }
  }
  return problems;
}

describe('route credentials', () => {
  it('every route of the service declares its credential or @Public()', () => {
    const root = AppModule.forRoot(validateEnv(process.env), pino({ enabled: false }), createMetricsRegistry());
    const controllers = controllersUnder(root);
    assert.ok(controllers.size >= 15, `found only ${controllers.size} controllers: the module walk misses some`);
    assert.deepEqual(undeclaredRoutes(controllers), []);
  });

  it('so does every route of the example extension, a case source\'s included (@RequiresSourceCredential)', () => {
    const controllers = controllersUnder(TicketExtensionModule);
    assert.ok(controllers.size >= 1, 'the example\'s controllers are found');
    assert.deepEqual(undeclaredRoutes(controllers), []);
  });
});

describe('undeclaredRoutes', () => {
  @Controller('open')
  @Public()
  class OpenController {
    @Get() show() {}
  }

  @Controller('mixed')
  @RequiresCredential({ kind: 'bearer', scope: 'admin' })
  class MixedController {
    @Get() list() {}
    @Post() @RequiresCredential({ kind: 'operator' }) rotate() {}
    helper() {}
  }

  @Controller('forgotten')
  class ForgottenController {
    @Get() show() {}
    @Post() @Public() submit() {}
  }

  @Controller('unenforced')
  class UnenforcedController {
    @Get() @RouteConfig({ credential: { kind: 'operator' } }) show() {}
  }

  @Controller('api/admin/v1/tokenish')
  @RequiresCredential({ kind: 'bearer', scope: 'admin' })
  class RolelessAdminController {
    @Get() list() {}
    @Post() @RequiresRole('owner') create() {}
  }

  @Controller('both')
  @Public()
  class BothController {
    @Get() @RequiresCredential({ kind: 'form' }) show() {}
  }

  it('passes routes that declare a credential or are public, and ignores methods that are no routes', () => {
    assert.deepEqual(undeclaredRoutes([OpenController, MixedController]), []);
  });

  it('fails an admin route without a role, and passes one with', () => {
    assert.deepEqual(undeclaredRoutes([RolelessAdminController]), ['RolelessAdminController.list is an admin route that declares no role (@RequiresRole)']);
  });

  it('fails a route with neither, one whose credential no guard enforces, and one with both', () => {
    assert.deepEqual(undeclaredRoutes([ForgottenController, UnenforcedController, BothController]), [
      'ForgottenController.show declares no credential and is not @Public()',
      'UnenforcedController.show declares a credential no guard enforces (declare it with RequiresCredential)',
      'BothController.show declares a credential and @Public()',
    ]);
  });

  it('finds the controllers of static and dynamic modules, imported or not yet', () => {
    @Controller('a') class A {}
    @Controller('b') class B {}
    class Inner {}
    Reflect.defineMetadata('controllers', [A], Inner);
    const outer: DynamicModule = { module: class Outer {}, controllers: [B], imports: [{ forwardRef: () => Inner } as unknown as Type] };
    assert.deepEqual([...controllersUnder(outer)], [B, A]);
  });
});
