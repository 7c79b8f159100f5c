import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const loggerModule = fileURLToPath(new URL('./logger.js', import.meta.url));

describe('the service logger', () => {
  // A worker logs its start and then may log nothing for hours: its lines must not wait for 4 KiB
  // more (the fault suite's workers once looked hung because their start line never arrived).
  it('writes a line of an otherwise idle process to stdout while it still runs', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      const { createLogger } = await import(${JSON.stringify(loggerModule)});
      createLogger('info').info('started and idle');
      setInterval(() => {}, 60_000);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const line = new Promise<string>((resolve) => child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('\n')) resolve(output);
      }));
      const exited = once(child, 'exit').then(() => 'exited');
      const first = await Promise.race([line, exited]);
      assert.notEqual(first, 'exited');
      assert.equal(JSON.parse(first.split('\n')[0]).msg, 'started and idle');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
