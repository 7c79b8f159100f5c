import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, type Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { Env } from '../config/env.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { dataSourceOptions } from './data-source-options.js';
import { isDatabaseUnavailable, isLockConflict } from './database-errors.js';
import { PreparedStatements } from './prepared-statements.js';
import { RecentChanges } from './recent-changes.js';
import { ReplicaPosition, type ReplicaState } from './replica-position.js';
import type { Statement } from './typed-statement.js';

/** How often each process asks the primary and the replica where they are. */
const POLL_EVERY_MS = 250;

interface Replica {
  source: DataSource;
  statements: PreparedStatements;
  position: ReplicaPosition;
}

/**
 * The reads that may be served by a streaming replica (DATABASE_READ_URL): the case lists and
 * exports, the change feed, search, reports and the audit list, each of one organization. Without
 * a replica, or while it is down or more than DATABASE_READ_MAX_LAG_MS behind, they go to the
 * primary. An organization that changed something lately (RecentChanges) reads from the replica
 * only once it has replayed where the primary is when the read starts, waiting up to
 * DATABASE_READ_WAIT_MS for it, so a caller sees its own change. A read the replica fails
 * (gone, or its statement cancelled by a conflict with replay) is read again from the primary.
 *
 * Every other read and every write stays on the primary: what decides or changes something must
 * see the latest.
 */
@Injectable()
export class ReplicaReads implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly primary: PreparedStatements;
  private replica?: Replica;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private stopped = false;
  private reported?: ReplicaState;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly env: Env,
    private readonly changes: RecentChanges,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.primary = new PreparedStatements(dataSource);
  }

  onModuleInit(): void {
    if (!this.env.DATABASE_READ_URL) return;
    const options = dataSourceOptions({ ...this.env, DATABASE_URL: this.env.DATABASE_READ_URL });
    const source = new DataSource({ ...options, migrations: [], extra: { ...options.extra, application_name: 'case-intake-replica-reads' } } as typeof options);
    const statements = new PreparedStatements(source);
    const replica: Replica = { source, statements, position: new ReplicaPosition(this.primary, statements, this.env.DATABASE_READ_MAX_LAG_MS) };
    this.replica = replica;
    this.timer = setInterval(() => void this.poll(replica), POLL_EVERY_MS);
    this.timer.unref();
    void this.poll(replica);
  }

  /**
   * Before any pool closes (TypeORM closes the primary's in onApplicationShutdown): a poll still
   * running then fails with it, which is the stop, not the replica skipped. It is not waited for:
   * against a replica that does not answer, it could outlast SHUTDOWN_GRACE_MS.
   */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.replica?.source.isInitialized) await this.replica.source.destroy().catch(() => undefined);
  }

  /** `statement`'s rows, read for `organizationId` (PreparedStatements.rows). */
  rows<Row>(organizationId: number, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
    return this.read(organizationId, (on) => on.rows(statement, values));
  }

  /** `statement`'s rows, planned for its parameters (PreparedStatements.planned). */
  planned<Row>(organizationId: number, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
    return this.read(organizationId, (on) => on.planned(statement, values));
  }

  private async read<T>(organizationId: number, work: (on: PreparedStatements) => Promise<T>): Promise<T> {
    const replica = this.replica;
    if (!replica || !(await this.serves(replica, organizationId))) return work(this.primary);
    try {
      return await work(replica.statements);
    } catch (err) {
      if (!isDatabaseUnavailable(err) && !isLockConflict(err)) throw err;
      replica.position.failed();
      this.report(replica, err);
      return work(this.primary);
    }
  }

  private async serves(replica: Replica, organizationId: number): Promise<boolean> {
    if (replica.position.state() !== 'in use') return false;
    if (!(await this.changes.changedLately(organizationId))) return true;
    return replica.position.replayedUpTo(await replica.position.primaryPosition(), this.env.DATABASE_READ_WAIT_MS);
  }

  /** One poll at a time: against a replica that does not answer, one can last the connect timeout. */
  private async poll(replica: Replica): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if (!replica.source.isInitialized) await replica.source.initialize();
      await replica.position.poll();
      this.report(replica);
    } catch (err) {
      replica.position.failed();
      this.report(replica, err);
    } finally {
      this.polling = false;
    }
  }

  /** A line when the replica is skipped, and when it is used again. */
  private report(replica: Replica, err?: unknown): void {
    const state = replica.position.state();
    if (state === this.reported || this.stopped) return;
    this.reported = state;
    const lag = replica.position.lagSeconds();
    if (state === 'in use') this.logger.info({ lagSeconds: lag }, 'read replica in use');
    else if (state === 'behind') this.logger.warn({ lagSeconds: lag, maxLagMs: this.env.DATABASE_READ_MAX_LAG_MS }, 'read replica skipped: further behind the primary than DATABASE_READ_MAX_LAG_MS; its reads go to the primary');
    else this.logger.warn({ reason: err instanceof Error ? err.message : String(err) }, 'read replica skipped: where it is could not be read; its reads go to the primary');
  }

  /** The replica's lag and use in `registry` (with DATABASE_READ_URL; the app's composition calls it, as shared/metrics serves HTTP). */
  registerMetrics(registry: Registry): void {
    const position = () => this.replica?.position;
    new Gauge({
      name: 'database_read_replica_lag_seconds',
      help: 'Seconds since the primary had written no more than the read replica has replayed (NaN while the replica does not answer)',
      registers: [registry],
      collect() {
        this.set(position()?.lagSeconds() ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'database_read_replica_in_use',
      help: '1 while reads go to the read replica, 0 while it is skipped (down, or further behind than DATABASE_READ_MAX_LAG_MS)',
      registers: [registry],
      collect() {
        this.set(position()?.state() === 'in use' ? 1 : 0);
      },
    });
  }
}
