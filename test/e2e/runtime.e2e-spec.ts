import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Compiled to build/test/e2e/: the repository is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const scripts = () => (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const PINNED_NODE = '. scripts/pinned-node.sh && ';

/** `sh -c script` in the repository with a `node` first on PATH that says it is v20.0.0 (the machine Node of the issue). */
async function underOldNode(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = await mkdtemp(join(tmpdir(), 'old-node-'));
  try {
    await writeFile(join(bin, 'as-v20.cjs'), 'Object.defineProperty(process.versions, "node", { value: "20.0.0" });\n');
    await writeFile(join(bin, 'node'), `#!/bin/sh\nexec '${process.execPath}' --require '${join(bin, 'as-v20.cjs')}' "$@"\n`, { mode: 0o755 });
    return await new Promise((resolve, reject) => {
      const child = spawn('sh', ['-c', script], { cwd: root, env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}` } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });
  } finally {
    await rm(bin, { recursive: true, force: true });
  }
}

describe('the Node.js runtime', () => {
  it('the image runs the release CI tests on (.node-version, fetched by scripts/with-node.sh), and engines admits it', () => {
    const tested = read('.node-version').trim();
    assert.match(tested, /^\d+\.\d+\.\d+$/);
    const dockerfile = read('Dockerfile');
    assert.equal(/^ARG NODE_VERSION=(\S+)$/m.exec(dockerfile)?.[1], tested, 'Dockerfile ARG NODE_VERSION');
    const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(stages, ['node:${NODE_VERSION}-bookworm-slim', 'node:${NODE_VERSION}-bookworm-slim'], 'both stages use it');
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const [major, minor] = tested.split('.').map(Number) as [number, number];
    const range = /^\^(\d+)\.(\d+)\.0$/.exec(engines);
    assert.ok(range, `engines.node is a caret range: ${engines}`);
    assert.ok(major === Number(range[1]) && minor >= Number(range[2]), `${tested} satisfies engines ${engines}`);
    assert.ok(major % 2 === 0 && major >= 24, `${tested} is an LTS line still maintained in 2026`);
  });

  it("the image starts the service as `npm run start:prod` does (the command the bench measures), with its settings", () => {
    const words = scripts()['start:prod']!.replace(PINNED_NODE, '').split(' ');
    const settings = words.filter((word) => /^[A-Z_]+=/.test(word));
    const dockerfile = read('Dockerfile');
    const imageSettings = [...dockerfile.matchAll(/^ENV (\w+=\S+)$/gm)].map((m) => m[1]);
    for (const setting of settings) assert.ok(imageSettings.includes(setting), `Dockerfile ENV ${setting}`);
    assert.deepEqual(JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]'), words.slice(settings.length), 'Dockerfile CMD');
  });

  it("every npm script that runs Node first puts a release that satisfies engines on PATH, whatever Node started npm", () => {
    for (const [name, script] of Object.entries(scripts())) {
      if (name !== 'with-node') assert.ok(script.startsWith(PINNED_NODE), `${name}: ${script}`);
    }
  });

  it('under a Node older than engines allows, a script runs on the release in .node-version', async () => {
    const { code, stdout, stderr } = await underOldNode(`${PINNED_NODE}node -p process.versions.node`, {});
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), read('.node-version').trim());
  });

  it('with no registry to fetch that release from, a script stops at once with one line saying which Node it needs and how to get it', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'node-cache-'));
    try {
      const started = Date.now();
      const { code, stdout, stderr } = await underOldNode(`${PINNED_NODE}echo ran`, { NODE_CACHE_DIR: cache, npm_config_registry: 'http://127.0.0.1:1/' });
      // npm's own retries would take over a minute; the bound is loose for a busy machine.
      assert.ok(Date.now() - started < 20_000, `answered after ${Date.now() - started} ms`);
      assert.notEqual(code, 0);
      assert.equal(stdout, '', 'nothing after the check ran');
      const version = read('.node-version').trim();
      assert.equal(stderr.trim().split('\n').length, 1, stderr);
      assert.match(stderr, new RegExp(`needs Node ${version.replaceAll('.', '\\.')}: run \`scripts/with-node\.sh node --version\``));
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("CI runs the README's commands as a newcomer does, on the machine's own Node", () => {
    assert.match(read('.ci/run'), /^\.ci\/readme-commands$/m);
    const newcomer = read('.ci/readme-commands').split('\n').filter((line) => !line.startsWith('#')).join('\n');
    for (const step of ['npm ci', 'npm run start:local', 'npm test']) assert.match(newcomer, new RegExp(`\\b${step}\\b`), step);
    assert.doesNotMatch(newcomer, /with-node/, 'under the Node it is given');
  });

  it('CI runs the install and the suites through scripts/with-node.sh; test:replica and test:faults as their npm scripts run them, on the build npm test made', () => {
    const ci = read('.ci/run');
    for (const step of ['npm ci', 'npm test']) assert.match(ci, new RegExp(`^scripts/with-node\\.sh ${step}\\b`, 'm'), step);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    // A script's build, then its runner: `[VARIABLE=value ]node ...`.
    const steps = (name: string) => scripts[name].split(/ && (?=(?:[A-Z_]+=\S+ )*node )/);
    for (const name of ['test:replica', 'test:faults']) {
      const [build, runner] = steps(name);
      assert.equal(build, steps('test')[0], `${name} builds as npm test does`);
      const [, variables, command] = /^((?:[A-Z_]+=\S+ )*)(node .+)$/.exec(runner)!;
      assert.ok(ci.split('\n').includes(`${variables}scripts/with-node.sh ${command}`), name);
    }
  });
});
