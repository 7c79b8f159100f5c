import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { cruise, type IConfiguration } from 'dependency-cruiser';

/**
 * An extension may use the service only through the public barrel: whatever else it imports
 * may change in any release (docs/extending.md). The examples are what teams copy, so they
 * must show exactly that. They import it by the package's name (`case-intake-service/extension-api`),
 * which tsconfig.json's `paths` map to the barrel's source, as tsc reads them.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const PUBLIC_BARREL = 'src/extension-api/index.ts';

/** Every import of a file under examples/ that reaches the service's own files other than the barrel. */
async function privateImports(): Promise<string[]> {
  const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as IConfiguration;
  const { output } = await cruise(['examples'], { ...config.options, exclude: undefined, baseDir: root, tsConfig: { fileName: join(root, 'tsconfig.json') } });
  if (typeof output === 'string') throw new Error('expected a cruise result');
  return output.modules
    .filter((file) => file.source.startsWith('examples/'))
    .flatMap((file) => file.dependencies.map((d) => ({ from: file.source, to: d.resolved, external: d.coreModule || d.resolved.includes('node_modules/') })))
    .filter(({ from, to, external }) => !external && to !== PUBLIC_BARREL && !to.startsWith(from.split('/').slice(0, 2).join('/') + '/'))
    .map(({ from, to }) => `${from} -> ${to}`);
}

describe('example extensions', () => {
  it(`import nothing of the service but its public barrel (${PUBLIC_BARREL})`, async () => {
    assert.deepEqual(await privateImports(), []);
  });
});
