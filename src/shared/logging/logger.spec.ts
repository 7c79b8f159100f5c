import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const loggerModule = fileURLToPath(new URL('./logger.js', import.meta.url));

/**
 * Runs `script` (an ES module body with `logger` in scope) in a child process that then idles,
 * and resolves with the first line of its stdout that holds `last`; rejects if the child exits
 * first. A line that never arrives fails the test by its timeout, which ends the child (`signal`).
 */
async function idleChildWrites(script: string, last: string, signal: AbortSignal): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    const { createLogger, LOG_FLUSH_INTERVAL_MS } = await import(${JSON.stringify(loggerModule)});
    const logger = createLogger('info');
    ${script}
    setInterval(() => {}, 60_000);
  `], { stdio: ['ignore', 'pipe', 'inherit'], signal });
  child.on('error', () => undefined); // the abort at a timeout
  try {
    let output = '';
    child.stdout.setEncoding('utf8');
    const line = new Promise<string>((resolve) => child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const found = output.split('\n').find((l) => l.includes(last));
      if (found) resolve(found);
    }));
    const exited = once(child, 'exit').then(() => 'exited');
    const first = await Promise.race([line, exited]);
    assert.notEqual(first, 'exited');
    return first;
  } finally {
    child.kill('SIGKILL');
  }
}

describe('the service logger', () => {
  // A worker logs its start and then may log nothing for hours: its lines must not wait for 4 KiB
  // more (the fault suite's workers once looked hung because their start line never arrived).
  it('writes a line of an otherwise idle process to stdout while it still runs', { timeout: 30_000 }, async (t) => {
    const line = await idleChildWrites(`logger.info('started and idle');`, 'started and idle', t.signal);
    assert.equal(JSON.parse(line).msg, 'started and idle');
  });

  // The start of a service: 4 KiB of boot lines put a write under way, its last lines follow, and
  // the event loop is busy past the flush timer's turn, so the timer finds that write still under
  // way (timers run before I/O completions). A flush then does nothing, and what followed the
  // write must still reach stdout (it used to stay in the buffer for good: a worker "hung" at start).
  it('writes the last lines logged while a write was under way when the flush timer came', { timeout: 30_000 }, async (t) => {
    const line = await idleChildWrites(`
      for (let i = 0; i < 40; i++) logger.info({ filler: 'x'.repeat(100) }, 'boot line');
      logger.info('case intake service started');
      const busyUntil = Date.now() + LOG_FLUSH_INTERVAL_MS * 1.5;
      while (Date.now() < busyUntil);
    `, 'case intake service started', t.signal);
    assert.equal(JSON.parse(line).msg, 'case intake service started');
  });
});
