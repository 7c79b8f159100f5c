import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { cruise, type IConfiguration, type IModule } from 'dependency-cruiser';

/** The boundaries of docs/architecture.md, on the TypeScript sources (not the build). */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_LINES = 300;

async function cruiseSources(): Promise<{ modules: IModule[]; violations: string[] }> {
  const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as IConfiguration;
  const { output } = await cruise(['src'], { ...config.options, baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden } });
  if (typeof output === 'string') throw new Error('expected a cruise result');
  const violations = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  return { modules: output.modules, violations };
}

/** `src/modules/cases` for any file of the cases module; undefined outside src/modules and src/shared. */
function moduleOf(path: string): string | undefined {
  return /^src\/(?:modules|shared)\/[^/]+(?=\/)/.exec(path)?.[0];
}

/** Cycles of the graph of modules, each as the list of modules around it; none when there is no cycle. */
function moduleCycles(files: IModule[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = moduleOf(file.source);
    if (!from) continue;
    for (const dependency of file.dependencies) {
      const to = moduleOf(dependency.resolved);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]): void => {
    const start = path.indexOf(node);
    if (start >= 0) {
      cycles.push([...path.slice(start), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of edges.keys()) visit(node, []);
  return cycles;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('module boundaries', () => {
  const cruised = cruiseSources();

  it('resolves the .js specifiers of the sources to their .ts files', async () => {
    const { modules } = await cruised;
    const caseModule = modules.find((m) => m.source === 'src/modules/cases/domain/case.ts');
    assert.ok(caseModule, 'src/modules/cases/domain/case.ts was not cruised');
    assert.ok(caseModule.dependencies.some((d) => d.resolved === 'src/modules/cases/domain/case.errors.ts'));
  });

  it('no import cycle between modules (src/modules/*, src/shared/*)', async () => {
    assert.deepEqual(moduleCycles((await cruised).modules).map((cycle) => cycle.join(' -> ')), []);
  });

  it('no module imports another module\'s infrastructure or ORM entities, only infrastructure reaches TypeORM, and domain code no framework (.dependency-cruiser.cjs)', async () => {
    assert.deepEqual((await cruised).violations, []);
  });

  it(`no file in src/ over ${MAX_LINES} lines`, () => {
    const long = filesUnder(join(root, 'src'))
      .map((path) => ({ path: relative(root, path), lines: readFileSync(path, 'utf8').trimEnd().split('\n').length }))
      .filter((file) => file.lines > MAX_LINES);
    assert.deepEqual(long, []);
  });
});

describe('moduleCycles', () => {
  const file = (source: string, ...targets: string[]) => ({ source, dependencies: targets.map((resolved) => ({ resolved })) }) as unknown as IModule;

  it('finds two modules that import each other through files that form no cycle', () => {
    const cycles = moduleCycles([
      file('src/modules/cases/application/create.ts', 'src/modules/workflows/service.ts'),
      file('src/modules/workflows/definition.ts', 'src/modules/cases/domain/case.ts'),
    ]);
    assert.deepEqual(cycles, [['src/modules/cases', 'src/modules/workflows', 'src/modules/cases']]);
  });

  it('ignores imports inside a module and files outside the modules', () => {
    assert.deepEqual(moduleCycles([
      file('src/modules/cases/a.ts', 'src/modules/cases/b.ts', 'src/shared/json/text.ts'),
      file('src/modules/cases/b.ts', 'src/modules/cases/a.ts'),
      file('src/main.ts', 'src/modules/cases/a.ts'),
      file('src/shared/json/text.ts'),
    ]), []);
  });
});
