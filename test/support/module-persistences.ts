import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { declaredPersistences, declaredStatements, type DeclaredPersistence, type Statement } from '../../src/shared/database/typed-statement.js';
import { REPO_ROOT, sourceFiles } from './source-files.js';

const BUILD_ROOT = join(REPO_ROOT, 'build');

/** Imports, from the build, every source file of `src` that declares a persistence or statements of one. */
async function loadDeclaring(): Promise<void> {
  const declaring = sourceFiles(join(REPO_ROOT, 'src')).filter((file) => /\bmodulePersistence\(|from '\.{1,2}\/(?:infrastructure\/)?persistence\.js'/.test(readFileSync(file, 'utf8')));
  for (const file of declaring) await import(pathToFileURL(join(BUILD_ROOT, relative(REPO_ROOT, file)).replace(/\.ts$/, '.js')).href);
}

/** `src/modules/teams/infrastructure/persistence.ts` for the build's file (a `file:` URL or a path) of it. */
export function sourcePath(file: string): string {
  return relative(BUILD_ROOT, file.startsWith('file:') ? fileURLToPath(file) : file).replace(/\.js$/, '.ts');
}

/** Every module's persistence of `src` (its `persistence.ts`) and every statement declared through one. */
export async function modulePersistences(): Promise<{ persistences: readonly DeclaredPersistence[]; statements: readonly { statement: Statement<unknown>; module: string }[] }> {
  await loadDeclaring();
  return { persistences: declaredPersistences(), statements: declaredStatements() };
}

/** The tables each module owns, by module folder (`src/modules/teams`), as their persistences declare them. */
export async function tableOwners(): Promise<Record<string, string[]>> {
  const { persistences } = await modulePersistences();
  return Object.fromEntries(persistences.map(({ module, tables }) => [module, tables.map((t) => t.name)]));
}
