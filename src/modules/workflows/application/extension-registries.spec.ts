import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Injectable, Module, type Type } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { SenderScheme, type SenderSchemeDefinition, type SenderSchemeOptions } from '../../../extension-api/index.js';
import { builtInCaseSource } from '../../cases/application/built-in-case-sources.js';
import { BUILT_IN_SENDER_SCHEMES } from './built-in-sender-schemes.js';
import { CaseSourceRegistry } from './case-source-registry.js';
import { SenderSchemeRegistry } from './sender-scheme-registry.js';

/** An in-house sender: `x-in-house: <secret>` in plain text, good enough to tell the registry's wiring apart. */
@SenderScheme()
@Injectable()
class InHouseScheme implements SenderSchemeDefinition {
  readonly name = 'in_house';
  readonly options = ['tolerance_seconds'] as const;
  readonly settle = (options: SenderSchemeOptions) => ({ options, problems: [] });
  readonly verifier = (_options: SenderSchemeOptions, secret: string) => (request: { header(name: string): string | undefined }) => request.header('x-in-house') === secret;
}

// Made as the built-in sources are: the registry cannot tell them apart from an extension's.
const ChatSource = builtInCaseSource('chat', 'chat');
const ChatOpsSource = builtInCaseSource('chat_ops', 'chat');
const BadlyNamedSource = builtInCaseSource('chat ops', 'chat');

async function started<T>(registry: Type<T>, providers: Type[]): Promise<{ registry: T; get<P>(provider: Type<P>): P; close(): Promise<void> }> {
  @Module({ imports: [DiscoveryModule], providers: [registry, ...providers] })
  class Registries {}
  const context = await NestFactory.createApplicationContext(Registries, { logger: false, abortOnError: false });
  await context.init();
  return { registry: context.get(registry), get: (provider) => context.get(provider), close: () => context.close() };
}

const NOW = 1_764_000_000;
const request = (headers: Record<string, string>, body = Buffer.from('{}')) => [(name: string) => headers[name], body, NOW] as const;

describe('the sender scheme registry', () => {
  it('offers the built-in schemes and an extension\'s to the settings API, and checks with the one a workflow stored', async () => {
    const { registry, close } = await started(SenderSchemeRegistry, [...BUILT_IN_SENDER_SCHEMES, InHouseScheme]);
    try {
      assert.deepEqual([...registry.rules.keys()].sort(), ['github', 'hmac', 'in_house', 'slack', 'standard_webhooks', 'stripe']);
      const inHouse = registry.check({ scheme: 'in_house', tolerance_seconds: 300 }, 's3cret');
      assert.ok(inHouse(...request({ 'x-in-house': 's3cret' })));
      assert.ok(!inHouse(...request({ 'x-in-house': 'guess' })));
      const github = registry.check({ scheme: 'github' }, 'gh');
      const signature = `sha256=${createHmac('sha256', 'gh').update('{}').digest('hex')}`;
      assert.ok(github(...request({ 'x-hub-signature-256': signature })));
      assert.ok(!github(...request({ 'x-hub-signature-256': signature }, Buffer.from('{ }'))));
    } finally {
      await close();
    }
  });

  it('lets nothing in when a workflow\'s stored scheme is no longer registered', async () => {
    const { registry, close } = await started(SenderSchemeRegistry, [...BUILT_IN_SENDER_SCHEMES]);
    try {
      assert.ok(!registry.check({ scheme: 'in_house', tolerance_seconds: 300 }, 's3cret')(...request({ 'x-in-house': 's3cret' })));
    } finally {
      await close();
    }
  });
});

describe('the case source registry', () => {
  it('lists each workflow case_source once, and knows its sources from look-alikes', async () => {
    const { registry, get, close } = await started(CaseSourceRegistry, [ChatSource, ChatOpsSource]);
    try {
      assert.deepEqual(registry.caseSources, ['chat']);
      assert.ok(registry.isRegistered(get(ChatOpsSource)));
      assert.ok(!registry.isRegistered(new ChatSource()));
    } finally {
      await close();
    }
  });

  it('stops the start on a source type that cannot be shown, filtered on or counted', async () => {
    await assert.rejects(started(CaseSourceRegistry, [BadlyNamedSource]), /chat opsCaseSource has the source type "chat ops"/);
  });
});
