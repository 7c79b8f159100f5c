import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import type { RetentionDays } from '../domain/retention.js';
import { EXPIRING_KINDS, type PurgeBatch, type PurgedCounts, PURGED_KINDS, type PurgedKind, PurgeMetrics, RetentionPurges } from './retention.ports.js';
import { retentionDefaults } from './retention-settings.service.js';

/**
 * Rows per batch: each batch is a transaction of its own holding the locks of at most this many
 * rows of its kind (plus what a case holds) for a few milliseconds, so intake never waits on it
 * for long, and a pass stopped midway leaves only whole batches done.
 */
export const PURGE_BATCH = 500;

/**
 * One purge pass: closed cases first (their runs and deliveries go with them), then finished
 * runs, ended deliveries, expired keys (idempotency, webhook delivery), old digest sends and audit entries,
 * ended sessions, spent sign-in links and fired SLA timers, each owner's rows in batches until none is left. Several passes may run at once (two workers): each batch skips rows another holds,
 * so no row is deleted, or counted, twice.
 */
@Injectable()
export class PurgePass {
  private readonly defaults: RetentionDays;
  private readonly intervalMs: number;
  private stopping = false;

  constructor(
    private readonly purges: RetentionPurges,
    private readonly metrics: PurgeMetrics,
    env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.defaults = retentionDefaults(env);
    this.intervalMs = env.RETENTION_PURGE_INTERVAL_MS;
  }

  /** Ends a pass under way after its current batch (on shutdown). */
  stop(): void {
    this.stopping = true;
  }

  private count(total: Record<PurgedKind, number>, purged: PurgedCounts): void {
    for (const kind of PURGED_KINDS) total[kind] += purged[kind] ?? 0;
    this.metrics.purged(purged);
  }

  async run(): Promise<Record<PurgedKind, number>> {
    const started = Date.now();
    const restsUntil = started + this.intervalMs / 2;
    const total = Object.fromEntries(PURGED_KINDS.map((kind) => [kind, 0])) as Record<PurgedKind, number>;
    const drain = async <P>(start: P, batch: (from: P) => Promise<PurgeBatch<P>>) => {
      for (let from: P | null = start; from !== null && !this.stopping; ) {
        const batchStarted = Date.now();
        const { purged, next } = await batch(from);
        this.count(total, purged);
        from = next;
        // In the first half of its interval a pass rests as long as each batch took, so its
        // deletes spread out instead of coming as a burst that competes with intake for the
        // database; a pass with more to delete than that goes on without rests, so the purge
        // keeps up with what comes in (both measured by the bench's growth budget).
        if (from !== null && Date.now() < restsUntil) await sleep(Date.now() - batchStarted);
      }
    };
    try {
      for (const organization of await this.purges.organizationsWithOldClosedCases(this.defaults.closedCasesDays)) {
        await drain(organization.start, (from) => this.purges.purgeClosedCases(organization, from, PURGE_BATCH));
      }
      // Whole month partitions first: what is left for the batches is in the newest ones.
      this.count(total, { runs: await this.purges.dropRunPartitions(this.defaults.runsDays) });
      this.count(total, { audit_entries: await this.purges.dropAuditPartitions(this.defaults.auditDays) });
      for (const organization of await this.purges.organizationsWithOldRuns(this.defaults.runsDays)) {
        await drain(organization.start, (from) => this.purges.purgeRuns(organization, from, PURGE_BATCH));
      }
      for (const subscription of await this.purges.subscriptionsWithOldDeliveries(this.defaults.deliveriesDays)) {
        await drain(subscription.start, (afterId) => this.purges.purgeDeliveries(subscription, afterId, PURGE_BATCH));
      }
      for (const kind of EXPIRING_KINDS) await drain(0, (afterCaseId) => this.purges.purgeExpiredKeys(kind, afterCaseId, PURGE_BATCH));
      await drain(0, () => this.purges.purgeDigestSends(PURGE_BATCH));
      await drain(0, () => this.purges.purgeAuditEntries(this.defaults.auditDays, PURGE_BATCH));
      await drain(0, () => this.purges.purgeEndedSessions(PURGE_BATCH));
      await drain(0, () => this.purges.purgeSpentSignInLinks(PURGE_BATCH));
      await drain(0, () => this.purges.purgeFiredSlaTimers(PURGE_BATCH));
      // Months of the timeline and of deliveries go once the batches emptied them (their rows go with their case or event).
      await this.purges.dropEmptiedPartitions();
    } catch (err) {
      this.logger.warn({ purged: total, durationMs: Date.now() - started, err: String(err) }, 'retention purge pass failed; the next pass goes on');
      throw err;
    }
    this.logger.info({ purged: total, durationMs: Date.now() - started }, 'retention purge pass');
    return total;
  }
}
