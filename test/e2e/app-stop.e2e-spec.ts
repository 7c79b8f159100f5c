import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { startSmtpSink } from '../support/smtp-sink.js';
import { startTestApp } from '../support/test-app.js';

/** Longer than any polling loop's idle pause (the report fold's, 1 s, is the longest). */
const LONGER_THAN_ANY_PAUSE_MS = 1_500;
/** A connect timeout no stop should wait out (the default SHUTDOWN_GRACE_MS is 10 s). */
const HANGING_CONNECT_MS = 60_000;

describe('stopping the service', () => {
  it('stops every polling loop before the database closes: a process running them all (mail sender and read replica poll included) stops without a warning', async () => {
    const sink = await startSmtpSink();
    // Without this run's replica, the primary stands for one: the replica poll asks it where it is as it would a replica.
    const readUrl = process.env.DATABASE_READ_URL ?? process.env.DATABASE_URL!;
    const t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, DATABASE_READ_URL: readUrl }, captureLogs: true });
    try {
      // The window a stop leaves open, made wide: the database's pool is closed, then the stop
      // waits before it goes on to the next module. A loop still running in it fails its pass
      // with "Driver not Connected" and logs an outage (start:local printed one when stopped).
      const dataSource = t.app.get(DataSource);
      const destroy = dataSource.destroy.bind(dataSource);
      dataSource.destroy = async () => {
        await destroy();
        await sleep(LONGER_THAN_ANY_PAUSE_MS);
      };
      await t.close();
      const warnings = t.logs.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 40);
      assert.deepEqual(warnings, []);
    } finally {
      await sink.close();
    }
  });

  it('does not wait for a read replica that does not answer: its poll, hanging on the connection, is left to the stop', async () => {
    // Takes connections and never answers, as a replica whose machine hangs: the poll waits for
    // the connect timeout, set far beyond the 30 s the test gives the stop.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const readUrl = `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/postgres`;
    const t = await startTestApp({ env: { DATABASE_READ_URL: readUrl, DATABASE_CONNECT_TIMEOUT_MS: String(HANGING_CONNECT_MS) } });
    // Cancelled once the stop has ended, so the file does not wait the 30 s out.
    const deadline = new AbortController();
    try {
      while (!sockets.length) await sleep(20);
      const stillStopping = sleep(HANGING_CONNECT_MS / 2, 'still stopping', { signal: deadline.signal }).catch(() => 'cancelled');
      const stopped = await Promise.race([t.close().then(() => 'stopped'), stillStopping]);
      assert.equal(stopped, 'stopped');
    } finally {
      deadline.abort();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
