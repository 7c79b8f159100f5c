import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BlockedAddressError, guardedLookup, OutboundHttp, type RefusalLog, type Resolver } from './outbound-http.js';

const REFUSAL = 'the request could not be sent to that address';

/** A loopback HTTP server that records the paths it was asked for. */
async function localServer(handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok')) {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url!);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, paths, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Debug lines the client wrote, as JSON text. */
function recordingLog(): RefusalLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, debug: (fields, message) => lines.push(JSON.stringify({ ...fields, message })) };
}

/** A resolver that gives each look-up of any name the next answer of a script (the last one repeats). */
function scriptedResolver(...answers: Array<string[] | Error>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)]!;
    calls.push(hostname);
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return Object.assign(resolve, { calls });
}

function notFound(): Error {
  return Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
}

/** The message `send` fails with (it must fail). */
async function failure(http: OutboundHttp, url: string): Promise<string> {
  const err = await http.send({ method: 'POST', url, body: '{}', timeoutMs: 5_000 }).then(
    (res) => assert.fail(`${url} was sent (answered ${res.status})`),
    (e: unknown) => e,
  );
  return err instanceof Error ? err.message : String(err);
}

describe('OutboundHttp with OUTBOUND_ALLOW_PRIVATE=false', () => {
  let target: Awaited<ReturnType<typeof localServer>>;
  before(async () => { target = await localServer(); });
  after(async () => { await target.close(); });

  it('refuses every spelling of an internal IP address in a URL with the one generic message, before sending', async () => {
    const log = recordingLog();
    const http = new OutboundHttp(false, { log });
    const p = target.port;
    const urls = [
      `http://2130706433:${p}/decimal`, `http://0x7f.1:${p}/hex`, `http://127.1:${p}/short`, `http://017700000001:${p}/octal`,
      `http://[::ffff:127.0.0.1]:${p}/mapped`, `http://[::ffff:7f00:1]:${p}/mapped-hex`, `http://[::127.0.0.1]:${p}/compatible`,
      `http://[::7f00:1]:${p}/compatible-hex`, `http://[64:ff9b::127.0.0.1]:${p}/nat64`, `http://[64:ff9b:1::7f00:1]:${p}/nat64-local`,
      `http://[2002:7f00:1::1]:${p}/6to4`, `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${p}/teredo`,
      'http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/latest/meta-data/', 'http://100.100.100.200/latest/meta-data/',
      `http://[::1]:${p}/loopback6`,
    ];
    try {
      const wrong: string[] = [];
      for (const url of urls) {
        const message = await failure(http, url);
        if (message !== REFUSAL) wrong.push(`${url}: ${message}`);
      }
      assert.deepEqual(wrong, [], 'every refusal carries the generic message');
      assert.deepEqual(target.paths, [], 'the local server got no request');
      assert.equal(log.lines.length, urls.length, 'each refusal is explained on a debug line');
    } finally {
      await http.close();
    }
  });

  it('answers a name that does not resolve and a name that resolves to a private address alike; only the debug log tells them apart, without the query', async () => {
    const log = recordingLog();
    const http = new OutboundHttp(false, { log });
    try {
      const missing = await failure(http, `http://no-such-host.invalid:${target.port}/x?token=query-secret-1`);
      const internal = await failure(http, `http://localhost:${target.port}/x?token=query-secret-2`);
      assert.equal(missing, REFUSAL);
      assert.equal(internal, REFUSAL);
      assert.deepEqual(target.paths, []);
      const text = log.lines.join('\n');
      assert.match(text, /"host":"no-such-host\.invalid","reason":"does not resolve \(ENOTFOUND\)"/);
      assert.match(text, /"host":"localhost","reason":"resolves to a blocked address","address":"(127\.0\.0\.1|::1)"/);
      assert.doesNotMatch(text, /query-secret/, 'no URL query in the log');
    } finally {
      await http.close();
    }
  });

  it('connects to the address it checked: a name answering public and then private (DNS rebinding) is refused on the private answer', async (t) => {
    // The look-up a socket connects with, called as node:net calls it: the first answer passes
    // the check and is the one handed to the socket; the second is private and refused.
    const resolve = scriptedResolver(['93.184.215.14'], ['127.0.0.1']);
    const lookup = guardedLookup(resolve, false, recordingLog());
    const lookUp = () => new Promise<{ err: Error | null; addresses: unknown }>((done) => lookup('rebind.example', { all: true }, (err, addresses) => done({ err, addresses })));
    assert.deepEqual(await lookUp(), { err: null, addresses: [{ address: '93.184.215.14', family: 4 }] });
    const second = await lookUp();
    assert.ok(second.err instanceof BlockedAddressError, `refused: ${String(second.err)}`);
    assert.equal(second.err.message, REFUSAL);

    await t.test('through the client: an answer with a private address among public ones is refused whole, and nothing is sent', async () => {
      for (const answer of [['93.184.215.14', '127.0.0.1'], ['2606:4700:4700::1111', '::1'], ['::ffff:127.0.0.1']]) {
        const rebinding = scriptedResolver(answer);
        const http = new OutboundHttp(false, { resolve: rebinding });
        try {
          assert.equal(await failure(http, `http://rebind.example:${target.port}/rebind`), REFUSAL, answer.join(', '));
          assert.deepEqual(rebinding.calls, ['rebind.example'], 'the connection itself looked the name up');
        } finally {
          await http.close();
        }
      }
      assert.deepEqual(target.paths, []);
    });
  });

  it('refuses a name with no address at all with the same message', async () => {
    const http = new OutboundHttp(false, { resolve: scriptedResolver([]) });
    const broken = new OutboundHttp(false, { resolve: scriptedResolver(notFound()) });
    try {
      assert.equal(await failure(http, `http://empty.example:${target.port}/`), REFUSAL);
      assert.equal(await failure(broken, `http://gone.example:${target.port}/`), REFUSAL);
    } finally {
      await http.close();
      await broken.close();
    }
  });
});

describe('OutboundHttp redirects', () => {
  it('does not follow a redirect (to a private address or anywhere): the 3xx is the answer', async () => {
    const inside = await localServer();
    const outside = await localServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/latest/meta-data/` });
      res.end();
    });
    // Private addresses allowed so the first hop, a loopback server, can be reached at all.
    const http = new OutboundHttp(true);
    try {
      const res = await http.send({ method: 'GET', url: `http://127.0.0.1:${outside.port}/start`, timeoutMs: 5_000 });
      assert.equal(res.status, 302);
      assert.deepEqual(outside.paths, ['/start']);
      assert.deepEqual(inside.paths, [], 'the redirect target got no request');
    } finally {
      await http.close();
      await inside.close();
      await outside.close();
    }
  });
});
