import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { createApp } from '../../app.js';
import type { ExtensionModule } from '../../extension-api/extensions.js';
import { EXTENSION_API_VERSION } from '../../extension-api/version.js';
import { validateEnv } from '../../shared/config/env.js';
import { createLogger } from '../../shared/logging/logger.js';
import { checkExtensionApiVersions } from './extension-api-version.js';

/** An extension module built for `apiVersion`. */
function builtFor(apiVersion: unknown): ExtensionModule {
  @Module({})
  class JiraStepsModule {
    static readonly apiVersion = apiVersion as string;
  }
  return JiraStepsModule;
}

describe('extension API version', () => {
  it('runs extensions built for its own major version and a minor no newer than its own', () => {
    assert.doesNotThrow(() => checkExtensionApiVersions([builtFor('1.0.0'), builtFor('1.2.7'), builtFor('1.3.0')], '1.3.2'));
    assert.doesNotThrow(() => checkExtensionApiVersions([builtFor(EXTENSION_API_VERSION)]));
  });

  it('refuses an extension built for another major version, naming it and both versions', () => {
    assert.throws(() => checkExtensionApiVersions([builtFor('1.0.0'), builtFor('2.0.0')], '1.3.2'), {
      message: 'extension JiraStepsModule was built for extension API 2.0.0, and this service provides extension API 1.3.2: it runs extensions built for 1.0.0 up to 1.3.2',
    });
    assert.throws(() => checkExtensionApiVersions([builtFor('0.9.0')], '1.3.2'), /extension JiraStepsModule was built for extension API 0\.9\.0, and this service provides extension API 1\.3\.2/);
  });

  it('refuses an extension built for a newer minor version, whose additions this service lacks', () => {
    assert.throws(() => checkExtensionApiVersions([builtFor('1.4.0')], '1.3.2'), /extension JiraStepsModule was built for extension API 1\.4\.0, and this service provides extension API 1\.3\.2/);
  });

  it('refuses an extension that declares no version, or not as major.minor.patch, and a dynamic module by its module\'s name', () => {
    for (const declared of [undefined, '1', 'v1.0.0', 1]) {
      assert.throws(() => checkExtensionApiVersions([builtFor(declared)], '1.3.2'), {
        message: `extension JiraStepsModule declares no extension API version (apiVersion: ${JSON.stringify(declared) ?? 'none'}); this service provides extension API 1.3.2: declare the version it was built for, e.g. static readonly apiVersion = '1.3.2'`,
      });
    }
    const dynamic = { module: builtFor('1.0.0') as new () => unknown, apiVersion: '2.1.0' };
    assert.throws(() => checkExtensionApiVersions([dynamic], '1.3.2'), /extension JiraStepsModule was built for extension API 2\.1\.0/);
  });

  it('stops the start of the service, before it connects to anything', async () => {
    const started = createApp(validateEnv({ ...process.env, REDIS_URL: 'redis://127.0.0.1:1' }), createLogger('silent'), { extensions: [builtFor('9.0.0')] });
    await assert.rejects(started, { message: `extension JiraStepsModule was built for extension API 9.0.0, and this service provides extension API ${EXTENSION_API_VERSION}: it runs extensions built for 1.0.0 up to ${EXTENSION_API_VERSION}` });
  });
});
