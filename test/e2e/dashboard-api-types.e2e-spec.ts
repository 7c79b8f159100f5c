/**
 * The dashboard's API types are generated from the OpenAPI document the service serves
 * (openapi-typescript), not copied by hand: this spec fails when the committed file no longer
 * matches the document, and `npm run generate:dashboard-types` (this spec with
 * UPDATE_DASHBOARD_TYPES=1) writes it anew. It also type-checks the dashboard against them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { startTestApp, type TestApp } from '../support/test-app.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const GENERATED = join(root, 'dashboard', 'src', 'api-schema.generated.ts');
const HEADER = '// Generated from the service\'s OpenAPI document by openapi-typescript: do not edit.\n// `npm run generate:dashboard-types` writes it anew; test/e2e/dashboard-api-types.e2e-spec.ts checks it.\n\n';

describe('the dashboard\'s API types', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('are what openapi-typescript makes of the OpenAPI document the service serves', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    const generated = HEADER + astToString(await openapiTS(document, { alphabetize: true, emptyObjectsUnknown: true }));
    if (process.env.UPDATE_DASHBOARD_TYPES === '1') writeFileSync(GENERATED, generated);
    assert.ok(readFileSync(GENERATED, 'utf8') === generated, 'dashboard/src/api-schema.generated.ts is stale: run `npm run generate:dashboard-types`');
  });

  it('type-check the dashboard (tsc -p dashboard/tsconfig.json)', async () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'dashboard', 'tsconfig.json')], { cwd: root }).catch((err: { stdout?: string; code?: number }) => err);
    assert.equal('code' in result && result.code ? result.code : 0, 0, `dashboard type errors:\n${result.stdout ?? ''}`);
  });
});
