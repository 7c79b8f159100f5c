// Preloaded into a server by bench/regression.sh (node --require): counts the statements the
// server sends to Postgres and the round trips they take (a statement sent while its connection
// has none in flight starts one; one sent behind another rides along on the pipelined
// connection), and writes the counts to $PG_COUNT_FILE every second.
if (process.env.PG_COUNT_FILE && /dist\/main\.js$/.test(process.argv[1] ?? '')) {
  const { createRequire } = require('node:module');
  const { writeFileSync } = require('node:fs');
  const pg = createRequire(`${process.cwd()}/`)('pg');
  const counts = { statements: 0, roundTrips: 0 };
  const inFlight = new WeakMap();
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    const n = inFlight.get(this) ?? 0;
    counts.statements++;
    if (n === 0) counts.roundTrips++;
    inFlight.set(this, n + 1);
    const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (...r) => (done(), callback(...r));
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof result.then === 'function') result.then(done, done);
    else done();
    return result;
  };
  setInterval(() => writeFileSync(process.env.PG_COUNT_FILE, JSON.stringify(counts)), 1000).unref();
}
