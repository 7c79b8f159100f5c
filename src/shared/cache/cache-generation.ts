import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Env } from '../config/env.js';
import { type Transaction, TransactionRunner } from '../database/transaction.js';
import { PreparedStatements } from '../database/prepared-statements.js';
import { column } from '../database/typed-statement.js';
import { rowsOf, statement } from './persistence.js';
import { entityManager } from '../database/typeorm-transaction-runner.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { CacheTrust } from './cache-trust.js';

/** How often every process reads cache_generation. */
const POLL_EVERY_MS = 200;
/** A poll (or its connection) not answered by then is given up and the connection replaced. */
const POLL_TIMEOUT_MS = 1_000;
/**
 * Rows of cache_invalidations kept: far more than the changes of one poll interval (they queue
 * on cache_generation's row lock), so only an instance that fell this far behind finds rows
 * missing, and it empties its caches.
 */
const KEPT_INVALIDATIONS = 10_000;

/** One statement, so the number and its rows come from one snapshot. */
const POLL = statement(
  `
  SELECT g.generation, i.generation AS changed, i.cache, i.key
  FROM cache_generation g
  LEFT JOIN cache_invalidations i ON i.generation > $1 AND i.generation <= g.generation`,
  { generation: column.int8, changed: column.nullable(column.int8), cache: column.nullable(column.text), key: column.nullable(column.text) },
);

/** The bump takes cache_generation's row lock until COMMIT, so numbers commit in order and a poll never sees one before a smaller one. */
const INVALIDATE = statement(`
  WITH bumped AS (UPDATE cache_generation SET generation = generation + 1 RETURNING generation),
  logged AS (INSERT INTO cache_invalidations (generation, cache, key) SELECT generation, $1, $2 FROM bumped)
  DELETE FROM cache_invalidations WHERE generation <= (SELECT generation FROM bumped) - ${KEPT_INVALIDATIONS}`);

/** The poll's own connection. */
export type GenerationConnection = pg.Client;

/**
 * Tells every instance what to drop from its in-memory caches (revoked tokens, unpublished
 * workflows, rotated webhook tokens), through Postgres alone: a change bumps the one-row
 * table cache_generation and records the key it invalidated in cache_invalidations, in its
 * own transaction (`commit`), and every process polls both. Nothing can be lost between the
 * change and its news; an instance drops the changed keys only, so one tenant's changes never
 * empty another tenant's entries; and an instance that cannot poll stops trusting its caches
 * (see CacheTrust for the timing).
 *
 * The poll has a connection of its own, outside the pool, so busy requests never delay it.
 */
@Injectable()
export class CacheGeneration extends CacheTrust implements OnModuleInit, OnApplicationShutdown {
  private connection?: Promise<GenerationConnection>;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.poll(), POLL_EVERY_MS);
    this.timer.unref();
    void this.poll();
  }

  /** A poll under way when the connection is closed fails with it: that is the stop, not news to log. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.disconnect();
  }

  /**
   * Runs `change` and the invalidation of `key` in the cache named `cache` in one transaction:
   * the only way to make a change other instances' caches must hear of. The bump comes last,
   * so writers wait on that one row only for the end of these rare admin transactions.
   */
  commit<T>(cache: string, key: string, change: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transactions.run(async (tx) => {
      const result = await change(tx);
      await this.invalidate(tx, cache, [key]);
      return result;
    });
  }

  /**
   * Invalidates `keys` of `cache` in `tx` as well: for a change that ends many entries at once
   * (each key its own bump, as every instance reads them; a bump the poll finds pruned empties
   * its caches, which is never wrong). Every instance, this one included, drops them at its next poll.
   */
  async invalidate(tx: Transaction, cache: string, keys: readonly string[]): Promise<void> {
    for (const key of keys) await rowsOf(entityManager(tx), INVALIDATE, [cache, key]);
  }

  /** One poll at a time: a hanging one makes the caches untrusted, not a pile of queries. */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    const startedAt = performance.now();
    try {
      this.connection ??= this.connect();
      const rows = await PreparedStatements.rowsOn(await this.connection, POLL, [this.since(startedAt)]);
      const invalidations = rows.flatMap((row) => (row.changed === null ? [] : [{ cache: row.cache!, key: row.key! }]));
      this.heard(String(rows[0]!.generation), invalidations, startedAt);
      this.failing = false;
    } catch (err) {
      this.disconnect();
      if (!this.failing && !this.stopped) this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'cache generation poll failed; caches are bypassed until it answers');
      this.failing = true;
    } finally {
      this.polling = false;
    }
  }

  protected async connect(): Promise<GenerationConnection> {
    const client = new pg.Client({
      connectionString: this.env.DATABASE_URL,
      application_name: 'case-intake cache-generation',
      connectionTimeoutMillis: POLL_TIMEOUT_MS,
      query_timeout: POLL_TIMEOUT_MS,
    });
    // A dropped connection is noticed by the next poll; the error must not crash the process.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  private disconnect(): void {
    const connection = this.connection;
    this.connection = undefined;
    connection?.then((client) => client.end()).catch(() => undefined);
  }
}
