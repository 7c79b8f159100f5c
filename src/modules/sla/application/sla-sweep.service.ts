import { Inject, Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { CaseFeedReads } from '../../cases/domain/case-feed-reads.js';
import { businessCalendar } from '../domain/business-calendar.js';
import { slaClocks } from '../domain/sla-clocks.js';
import { DEFAULT_PRIORITY, slaPolicy } from '../domain/sla-policy.js';
import { desiredTimers, type TimerSpec } from '../domain/sla-timers.js';
import { CaseHistories } from './case-histories.js';
import { type FiredTimer, SlaSweepStore, SlaTimerStore } from './sla-stores.js';

/** Cases looked at per policy and pass; a workflow with more changed catches up over the next passes. */
const CASES_PER_PASS = 100;
const FIRE_BATCH = 100;

/**
 * The worker's SLA pass: first the timers of the cases changed since the last pass are brought in
 * line with their clocks, then every timer due is fired once, whatever the number of workers: a timer is
 * taken with `FOR UPDATE SKIP LOCKED` and marked fired in the transaction that acts on it.
 */
@Injectable()
export class SlaSweep {
  constructor(
    private readonly sweeps: SlaSweepStore,
    private readonly timers: SlaTimerStore,
    private readonly cases: CaseFeedReads,
    private readonly histories: CaseHistories,
    private readonly transactions: TransactionRunner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** One pass; answers the timers it fired. */
  async run(now = new Date()): Promise<FiredTimer[]> {
    const policies = await this.sweeps.policies();
    // Deleting a policy deletes its unfired timers: without policies there is nothing to fire.
    if (policies.length === 0) return [];
    for (const { organizationId, workflowId } of policies) await this.track(organizationId, workflowId, now);
    return this.fire(now);
  }

  /**
   * Reads the cases changed since the policy's place in the feed without holding anything, then
   * stores their timers and the new place only if no other worker moved the policy on meanwhile.
   */
  private async track(organizationId: number, workflowId: number, now: Date): Promise<void> {
    const sweep = await this.sweeps.inForce(organizationId, workflowId);
    if (!sweep) return;
    let page = await this.cases.changes(organizationId, workflowId, sweep.feedCursor, CASES_PER_PASS);
    // Cases were purged past the cursor: their timers are theirs to lose; the others are swept again.
    if (page.expired) page = await this.cases.changes(organizationId, workflowId, null, CASES_PER_PASS);
    const policy = slaPolicy(sweep.policy.settings);
    const calendar = businessCalendar(sweep.calendar);
    const wanted = new Map<number, TimerSpec[]>();
    for (const subject of page.cases) {
      // A policy applies to live cases created after it was set (sla.md section 2).
      const applies = subject.mode === 'live' && subject.createdAt >= sweep.policy.createdAt;
      wanted.set(subject.id, applies ? desiredTimers(slaClocks(policy, calendar, DEFAULT_PRIORITY, await this.histories.of(subject), now)) : []);
    }
    await this.transactions.run(async (tx) => {
      if (!(await this.sweeps.claim(tx, organizationId, sweep))) return;
      for (const [caseId, timers] of wanted) await this.timers.replace(tx, organizationId, workflowId, caseId, timers);
      await this.sweeps.saveFeedCursor(tx, organizationId, workflowId, page.cursor);
    });
  }

  /**
   * Fires the due timers in batches. Firing is recorded (`fired_at`) and logged with how late it
   * is; the timeline row, the subscription event and the notifications of sla.md section 3 are
   * not written yet (see the report of issue 25's first part).
   */
  private async fire(now: Date): Promise<FiredTimer[]> {
    const fired: FiredTimer[] = [];
    for (;;) {
      const batch = await this.transactions.run((tx) => this.timers.fireDue(tx, now, FIRE_BATCH));
      for (const timer of batch) {
        this.logger.info({ organizationId: timer.organizationId, caseId: timer.caseId, clock: timer.clock, kind: timer.kind, lateMs: timer.firedAt.getTime() - timer.fireAt.getTime() }, `case SLA ${timer.kind}`);
      }
      fired.push(...batch);
      if (batch.length < FIRE_BATCH) return fired;
    }
  }
}
