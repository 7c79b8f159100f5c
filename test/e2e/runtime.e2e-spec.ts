import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Compiled to build/test/e2e/: the repository is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

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
    const words = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['start:prod']!.split(' ');
    const settings = words.filter((word) => /^[A-Z_]+=/.test(word));
    const dockerfile = read('Dockerfile');
    const imageSettings = [...dockerfile.matchAll(/^ENV (\w+=\S+)$/gm)].map((m) => m[1]);
    for (const setting of settings) assert.ok(imageSettings.includes(setting), `Dockerfile ENV ${setting}`);
    assert.deepEqual(JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]'), words.slice(settings.length), 'Dockerfile CMD');
  });

  it('CI runs the install and both suites through scripts/with-node.sh', () => {
    const ci = read('.ci/run');
    for (const step of ['npm ci', 'npm test', 'npm run test:faults']) {
      assert.match(ci, new RegExp(`^scripts/with-node\\.sh ${step}\\b`, 'm'), step);
    }
  });
});
