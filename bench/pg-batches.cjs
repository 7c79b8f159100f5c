// Preloaded into a server (regression.sh: SERVER_NODE_OPTIONS="--require $PWD/bench/pg-batches.cjs"):
// the intake batches the server sends, as its pg client sees them. Per batch, the intake
// statements between BEGIN and COMMIT (a statement sent alone, without a transaction, is a batch of
// one), and how long it took from BEGIN to COMMIT's answer (from the statement to its answer when
// alone). Writes {cwd, sizes, batches, p50, p90, p99, max} (ms) every second to
// $PG_BATCHES_DIR (default the system's temporary folder)/batches-<pid>.json.
if (/dist\/main\.js$/.test(process.argv[1] ?? '')) {
  const { createRequire } = require('node:module');
  const { writeFileSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { join } = require('node:path');
  const { performance } = require('node:perf_hooks');
  const pg = createRequire(`${process.cwd()}/`)('pg');
  const sizes = {};
  const durations = [];
  const transactions = new WeakMap();
  const record = (size, startedAt, answer) => {
    sizes[size] = (sizes[size] ?? 0) + 1;
    answer?.then?.(() => durations.push(performance.now() - startedAt), () => undefined);
  };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
    const answer = query.apply(this, args);
    const open = transactions.get(this);
    if (text === 'BEGIN') transactions.set(this, { statements: 0, startedAt: performance.now() });
    else if (text.trimStart().startsWith('WITH new_case')) {
      if (open) open.statements++;
      else record(1, performance.now(), answer);
    } else if (text === 'COMMIT' && open) {
      transactions.delete(this);
      if (open.statements > 0) record(open.statements, open.startedAt, answer);
    }
    return answer;
  };
  const file = join(process.env.PG_BATCHES_DIR ?? tmpdir(), `batches-${process.pid}.json`);
  setInterval(() => {
    const sorted = durations.slice().sort((a, b) => a - b);
    const at = (p) => (sorted.length ? Number(sorted[Math.floor(p * (sorted.length - 1))].toFixed(2)) : null);
    writeFileSync(file, JSON.stringify({ cwd: process.cwd(), sizes, batches: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }));
  }, 1000).unref();
}
