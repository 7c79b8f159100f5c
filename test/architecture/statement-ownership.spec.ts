import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import ts from 'typescript';

/**
 * A module's runners take its own statements only (shared/database/module-persistence.ts): running
 * another module's statement is a compile error. Shown by compiling, with the project's options,
 * a file of the reporting module that runs a statement of the cases module, beside one that runs
 * its own. That no module reaches another's persistence is .dependency-cruiser.cjs's
 * (module-boundaries.spec.ts); that a module's own statements touch only its tables is
 * typed-statements.integration-spec.ts's, as Postgres plans them.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const PROBE = join(root, 'src/modules/reporting/infrastructure/ownership-probe.ts');

/** The errors of compiling `source` as the file PROBE, with tsconfig.json's options. */
function compileErrors(source: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const host = ts.createCompilerHost(config.options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version, ...rest) => (file === PROBE ? ts.createSourceFile(file, source, version) : readSource(file, version, ...rest));
  host.fileExists = ((exists) => (file: string) => file === PROBE || exists(file))(host.fileExists.bind(host));
  const program = ts.createProgram([PROBE], { ...config.options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === PROBE)
    .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

const probe = (statement: string) => `
import type { DataSource } from 'typeorm';
import { column } from '../../../shared/database/typed-statement.js';
import { statement as casesStatement } from '../../cases/infrastructure/persistence.js';
import { prepared, rowsOf, statement } from './persistence.js';

export const OWN = statement('SELECT count(*)::int AS n FROM digests', { n: column.int4 });
export const FOREIGN = casesStatement('SELECT count(*)::int AS n FROM cases', { n: column.int4 });

export async function count(source: DataSource): Promise<number> {
  const [viaRows] = await rowsOf(source, ${statement});
  const [viaPrepared] = await prepared(source).rows(${statement}, []);
  return viaRows!.n + viaPrepared!.n;
}
`;

describe("a module's statements", () => {
  it("run through the module's own runners", () => {
    assert.deepEqual(compileErrors(probe('OWN')), []);
  });

  it("do not compile when another module's runners are given them", () => {
    const errors = compileErrors(probe('FOREIGN'));
    assert.equal(errors.length, 2, errors.join('\n'));
    for (const error of errors) assert.match(error, /^TS2345: .*Type '"src\/modules\/cases"' is not assignable to type '"src\/modules\/reporting"'/s);
  });
});
