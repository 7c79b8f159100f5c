import type { ExtensionModule } from '../../extension-api/extensions.js';
import { EXTENSION_API_VERSION } from '../../extension-api/version.js';

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/**
 * Stops the start when an extension was built for an extension API this service does not
 * provide: another major version (something it uses may be gone or changed), or a newer minor
 * (something it uses may not exist yet). The message names the extension and both versions.
 */
export function checkExtensionApiVersions(extensions: readonly ExtensionModule[], serviceVersion: string = EXTENSION_API_VERSION): void {
  const [, major, minor] = VERSION.exec(serviceVersion)!.map(Number);
  for (const extension of extensions) {
    const declared: unknown = extension.apiVersion;
    const name = 'module' in extension ? extension.module.name : extension.name;
    const parts = typeof declared === 'string' ? VERSION.exec(declared)?.map(Number) : undefined;
    if (!parts) {
      throw new Error(
        `extension ${name} declares no extension API version (apiVersion: ${JSON.stringify(declared) ?? 'none'}); ` +
          `this service provides extension API ${serviceVersion}: declare the version it was built for, e.g. static readonly apiVersion = '${serviceVersion}'`,
      );
    }
    if (parts[1] !== major || parts[2] > minor) {
      throw new Error(
        `extension ${name} was built for extension API ${String(declared)}, and this service provides extension API ${serviceVersion}: ` +
          `it runs extensions built for ${major}.0.0 up to ${serviceVersion}`,
      );
    }
  }
}
