/**
 * Run first by `npm run start:local`, before it builds: when the service's HTTP port (PORT, 3000)
 * or its SMTP port (SMTP_PORT, 2525; 0 turns SMTP off) is taken on HOST (127.0.0.1 under
 * start:local), says so in one line and exits 1, rather than building for half a minute and then
 * failing with a stack trace. Plain JavaScript, so any Node from 18 on runs it.
 */
import net from 'node:net';

const host = process.env.HOST || '127.0.0.1';
const wanted = [
  ['PORT', process.env.PORT || '3000'],
  ['SMTP_PORT', process.env.SMTP_PORT || '2525'],
];

/** The error that listening on `port` meets, or undefined when it is free (it is closed again at once). */
const tryListen = (port) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err) => resolve(err));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });

let failed = false;
for (const [name, value] of wanted) {
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) continue; // 0 is off; the service judges the rest
  const err = await tryListen(port);
  if (!err) continue;
  failed = true;
  console.error(
    err.code === 'EADDRINUSE'
      ? `port ${port} is in use: set ${name}=<free port> (or stop what listens there)`
      : `port ${port} cannot be listened on at ${host} (${err.code ?? err.message}): set ${name}=<another port>`,
  );
}
process.exit(failed ? 1 : 0);
