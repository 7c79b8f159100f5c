import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { Env } from '../config/env.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { CacheTrust } from './cache-trust.js';

/** How often every process reads cache_generation. */
const POLL_EVERY_MS = 200;
/** A poll (or its connection) not answered by then is given up and the connection replaced. */
const POLL_TIMEOUT_MS = 1_000;

export interface GenerationConnection {
  query(sql: string): Promise<{ rows: { generation: string }[] }>;
  end(): Promise<void>;
}

/**
 * Tells every instance when to empty its in-memory caches (revoked tokens, unpublished
 * workflows, rotated webhook tokens), through Postgres alone: a change bumps the one-row
 * table cache_generation in its own transaction (`commit`), and every process polls it.
 * Nothing can be lost between the change and its news, and an instance that cannot poll stops
 * trusting its caches (see CacheTrust for the timing).
 *
 * The poll has a connection of its own, outside the pool, so busy requests never delay it.
 */
@Injectable()
export class CacheGeneration extends CacheTrust implements OnModuleInit, OnApplicationShutdown {
  private connection?: Promise<GenerationConnection>;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private failing = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.disconnect();
  }

  /**
   * Runs `change` and the bump of cache_generation in one transaction: the only way to make a
   * change other instances' caches must hear of. The bump comes last, so writers wait on that
   * one row only for the end of these rare admin transactions.
   */
  commit<T>(change: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const result = await change(manager);
      await manager.query('UPDATE cache_generation SET generation = generation + 1');
      return result;
    });
  }

  /** One poll at a time: a hanging one makes the caches untrusted, not a pile of queries. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const startedAt = performance.now();
    try {
      this.connection ??= this.connect();
      const { rows } = await (await this.connection).query('SELECT generation FROM cache_generation');
      this.heard(String(rows[0]!.generation), startedAt);
      this.failing = false;
    } catch (err) {
      this.disconnect();
      if (!this.failing) this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'cache generation poll failed; caches are bypassed until it answers');
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
