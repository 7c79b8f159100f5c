/**
 * The dashboard's API types are generated from the OpenAPI document the service serves
 * (openapi-typescript), not copied by hand, and so is its map of the least role of each admin
 * operation (the document's `x-required-role`, from each route's `@RequiresRole`): this spec
 * fails when a committed file no longer matches the document, and `npm run
 * generate:dashboard-types` (this spec with UPDATE_DASHBOARD_TYPES=1) writes them anew. It also
 * type-checks the dashboard against them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { REQUIRED_ROLE_EXTENSION } from '../../src/shared/http/route-credentials.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const GENERATED = join(root, 'dashboard', 'src', 'api-schema.generated.ts');
const GENERATED_ROLES = join(root, 'dashboard', 'src', 'required-roles.generated.ts');
const HEADER = '// Generated from the service\'s OpenAPI document by openapi-typescript: do not edit.\n// `npm run generate:dashboard-types` writes it anew; test/e2e/dashboard-api-types.e2e-spec.ts checks it.\n\n';

type Operation = { operationId?: string; [REQUIRED_ROLE_EXTENSION]?: string };

/** `REQUIRED_ROLES`: operation id to least role, for every admin operation of the document. */
function requiredRolesModule(document: { paths: Record<string, Record<string, Operation>> }): string {
  const entries = Object.values(document.paths)
    .flatMap((operations) => Object.values(operations))
    .filter((operation): operation is Required<Operation> => typeof operation === 'object' && operation !== null && !!operation.operationId && !!operation[REQUIRED_ROLE_EXTENSION])
    .map((operation) => [operation.operationId, operation[REQUIRED_ROLE_EXTENSION]] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return [
    '// Generated from the `x-required-role` of the service\'s OpenAPI document (each admin route\'s `@RequiresRole`): do not edit.',
    '// `npm run generate:dashboard-types` writes it anew; test/e2e/dashboard-api-types.e2e-spec.ts checks it.',
    '',
    '/** The least role each admin operation requires, by operation id. */',
    'export const REQUIRED_ROLES = {',
    ...entries.map(([id, role]) => `  ${id}: '${role}',`),
    '} as const;',
    '',
  ].join('\n');
}

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

  it('carry the least role of every admin operation (x-required-role) as the dashboard\'s role map', async () => {
    const generated = requiredRolesModule((await t.request('GET', '/openapi.json')).body);
    assert.match(generated, /publishWorkflow: 'admin'/);
    if (process.env.UPDATE_DASHBOARD_TYPES === '1') writeFileSync(GENERATED_ROLES, generated);
    assert.ok(readFileSync(GENERATED_ROLES, 'utf8') === generated, 'dashboard/src/required-roles.generated.ts is stale: run `npm run generate:dashboard-types`');
  });

  it('type-check the dashboard (tsc -p dashboard/tsconfig.json)', async () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'dashboard', 'tsconfig.json')], { cwd: root }).catch((err: { stdout?: string; code?: number }) => err);
    assert.equal('code' in result && result.code ? result.code : 0, 0, `dashboard type errors:\n${result.stdout ?? ''}`);
  });
});
