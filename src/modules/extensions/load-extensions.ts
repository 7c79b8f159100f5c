import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExtensionModule } from '../../extension-api/extensions.js';

/**
 * The extensions named in EXTENSIONS, for the built image and `npm run start:prod`: each
 * specifier is a package name (resolved from the service's node_modules) or a path (resolved
 * from the working directory) of a module whose default export is the extension's Nest module.
 */
export async function loadExtensions(setting: string | undefined): Promise<ExtensionModule[]> {
  const specifiers = (setting ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  return Promise.all(specifiers.map(async (specifier) => {
    const target = /^[./]/.test(specifier) ? pathToFileURL(resolve(specifier)).href : specifier;
    const loaded = (await import(target)) as { default?: unknown };
    const module = loaded.default;
    if (typeof module !== 'function' && !(typeof module === 'object' && module !== null && 'module' in module)) {
      throw new Error(`EXTENSIONS: ${specifier} has no default export of a Nest module`);
    }
    return module as ExtensionModule;
  }));
}
