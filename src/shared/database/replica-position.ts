import { performance } from 'node:perf_hooks';
import type { PreparedStatements } from './prepared-statements.js';
import { statement } from './persistence.js';
import { column } from './typed-statement.js';

/** Where the primary writes its WAL now. */
const PRIMARY_POSITION = statement('SELECT pg_current_wal_lsn()::text AS position', { position: column.text });
/**
 * What the replica has replayed; a server not in recovery (a replica promoted since, or the
 * primary itself) answers where it writes, as it holds everything.
 */
const REPLAYED_POSITION = statement('SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)::text AS position', {
  position: column.nullable(column.text),
});

/** A `pg_lsn` (`16/B374D848`) as a byte position, so that positions compare. */
export function walPosition(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export type ReplicaState = 'in use' | 'behind' | 'down';

interface Sample {
  at: number;
  position: bigint;
}

/**
 * How far a streaming replica is behind its primary, in time: both are asked where they are
 * (`poll`), and the primary's positions are kept with the time they were read. The replica has
 * replayed everything the primary had written at `caughtUpTo`: the time of the latest sample
 * whose position it has passed. Its lag is the time since then, so it grows by itself when the
 * replica stops answering or replaying, without a poll to say so.
 *
 * That is what lets a read skip the marker of a change older than the largest lag allowed
 * (ReplicaReads): when the lag is within `maxLagMs`, the replica holds every change made before
 * `maxLagMs` ago.
 */
export class ReplicaPosition {
  private readonly samples: Sample[] = [];
  private replayed?: bigint;
  private caughtUpTo = Number.NEGATIVE_INFINITY;
  private refreshing?: Promise<void>;

  constructor(
    private readonly primary: PreparedStatements,
    private readonly replica: PreparedStatements,
    private readonly maxLagMs: number,
  ) {}

  /** Reads the primary's position, then the replica's; a failure of either throws (the replica then counts as down until a poll succeeds). */
  async poll(): Promise<void> {
    this.samples.push({ at: performance.now(), position: await this.primaryPosition() });
    await this.refreshReplayed();
    this.forgetOldSamples();
  }

  /** The replica failed a read: it is not used again before a poll finds it answering. */
  failed(): void {
    this.caughtUpTo = Number.NEGATIVE_INFINITY;
    this.replayed = undefined;
  }

  /** Seconds since the primary had written no more than the replica has replayed; undefined while that is not known. */
  lagSeconds(): number | undefined {
    return Number.isFinite(this.caughtUpTo) ? (performance.now() - this.caughtUpTo) / 1000 : undefined;
  }

  state(): ReplicaState {
    if (this.replayed === undefined) return 'down';
    return performance.now() - this.caughtUpTo <= this.maxLagMs ? 'in use' : 'behind';
  }

  /** The primary's WAL position now. */
  async primaryPosition(): Promise<bigint> {
    const [row] = await this.primary.rows(PRIMARY_POSITION, []);
    return walPosition(row!.position);
  }

  /**
   * Whether the replica has replayed up to `position`, asking it again (one question at a time
   * for all who wait) until it has or `waitMs` passed.
   */
  async replayedUpTo(position: bigint, waitMs: number): Promise<boolean> {
    const deadline = performance.now() + waitMs;
    for (;;) {
      if (this.replayed !== undefined && this.replayed >= position) return true;
      if (performance.now() >= deadline) return false;
      await this.refreshReplayed().catch(() => undefined);
      if (this.replayed === undefined || this.replayed < position) await new Promise((resolve) => setTimeout(resolve, REPLAY_CHECK_EVERY_MS));
    }
  }

  private refreshReplayed(): Promise<void> {
    this.refreshing ??= this.readReplayed().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async readReplayed(): Promise<void> {
    const row = await this.replica.rows(REPLAYED_POSITION, []).then(
      ([answered]) => answered,
      (err: unknown) => {
        this.failed();
        throw err;
      },
    );
    if (!row?.position) return this.failed();
    const replayed = walPosition(row.position);
    this.replayed = replayed;
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const sample = this.samples[i]!;
      if (sample.position > replayed) continue;
      if (sample.at > this.caughtUpTo) this.caughtUpTo = sample.at;
      break;
    }
  }

  /**
   * Samples come in time, and so in position, order: one older than the sample the replica last
   * passed, or than twice the largest lag allowed, is never looked for again (the newest stays).
   */
  private forgetOldSamples(): void {
    const before = performance.now() - 2 * this.maxLagMs;
    while (this.samples.length > 1 && (this.samples[1]!.at <= this.caughtUpTo || this.samples[0]!.at < before)) this.samples.shift();
  }
}

/** How often a read waiting for the replica asks it again. */
const REPLAY_CHECK_EVERY_MS = 5;
