import { Inject, Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { CaseNotifications } from '../../cases/application/case-notifications.js';
import { CaseFeedReads } from '../../cases/domain/case-feed-reads.js';
import type { SlaNote } from '../../cases/domain/case-lifecycle.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import type { Case } from '../../cases/domain/case.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';
import { businessCalendar } from '../domain/business-calendar.js';
import { slaClocks } from '../domain/sla-clocks.js';
import { slaPolicy } from '../domain/sla-policy.js';
import { desiredTimers, type TimerSpec } from '../domain/sla-timers.js';
import { CaseHistories } from './case-histories.js';
import { type FiredTimer, SlaSweepStore, SlaTimerStore } from './sla-stores.js';
import { FIRED_SLA_TIMERS_KEPT_MS } from './sla-timer-purges.js';

/** Cases looked at per page of a workflow's changes. */
const CASES_PER_PAGE = 100;
/**
 * How long a pass goes on tracking pages of changes before it fires what is due: a workflow taking
 * in more than a page a second keeps up, and a backlog (a new policy, a restart) delays firing by
 * no more than this.
 */
const TRACKING_BUDGET_MS = 500;
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
    private readonly repository: CaseRepository,
    private readonly notifications: CaseNotifications,
    private readonly histories: CaseHistories,
    private readonly workflows: PublishedWorkflowsService,
    private readonly transactions: TransactionRunner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** One pass; answers the timers it fired. */
  async run(now = new Date()): Promise<FiredTimer[]> {
    const policies = await this.sweeps.policies();
    // Deleting a policy deletes its unfired timers: without policies there is nothing to fire.
    if (policies.length === 0) return [];
    const started = performance.now();
    let backlog = true;
    while (backlog && performance.now() - started < TRACKING_BUDGET_MS) {
      backlog = false;
      for (const { organizationId, workflowId } of policies) backlog = (await this.track(organizationId, workflowId, now)) || backlog;
    }
    return this.fire(now);
  }

  /**
   * Reads the cases changed since the policy's place in the feed without holding anything, then
   * stores their timers and the new place only if no other worker moved the policy on meanwhile.
   * Answers whether a full page was stored (more may be waiting).
   */
  private async track(organizationId: number, workflowId: number, now: Date): Promise<boolean> {
    const sweep = await this.sweeps.inForce(organizationId, workflowId);
    if (!sweep) return false;
    let page = await this.cases.changes(organizationId, workflowId, sweep.feedCursor, CASES_PER_PAGE);
    // Cases were purged past the cursor: their timers are theirs to lose; the others are swept again.
    if (page.expired) page = await this.cases.changes(organizationId, workflowId, null, CASES_PER_PAGE);
    const policy = slaPolicy(sweep.policy.settings);
    const calendar = businessCalendar(sweep.calendar);
    const wanted = new Map<number, TimerSpec[]>();
    // A timer older than the purge's horizon may have fired and been purged: it is not brought back to fire again.
    const horizon = now.getTime() - FIRED_SLA_TIMERS_KEPT_MS;
    for (const subject of page.cases) {
      const history = await this.histories.underPolicy(subject, sweep.policy.createdAt);
      const timers = history ? desiredTimers(slaClocks(policy, calendar, subject.priority, history, now)) : [];
      wanted.set(subject.id, timers.filter((timer) => timer.fireAt.getTime() > horizon));
    }
    return this.transactions.run(async (tx) => {
      if (!(await this.sweeps.claim(tx, organizationId, sweep))) return false;
      for (const [caseId, timers] of wanted) await this.timers.replace(tx, organizationId, workflowId, caseId, timers);
      await this.sweeps.saveFeedCursor(tx, organizationId, workflowId, page.cursor);
      return page.cases.length === CASES_PER_PAGE;
    });
  }

  /**
   * Fires the due timers in batches. A timer's effects (sla.md section 3: the timeline row and
   * the subscription event, written by the case's change statement, and the notification of the
   * assignee and watchers, and the run of the workflow's `on_sla` steps) are written in the
   * transaction that marks it fired: all of them once,
   * or, if it rolls back, none and the timer is taken again by the next pass.
   */
  private async fire(now: Date): Promise<FiredTimer[]> {
    const fired: FiredTimer[] = [];
    for (;;) {
      const batch = await this.transactions.run(async (tx) => {
        const due = await this.timers.fireDue(tx, now, FIRE_BATCH);
        await this.tell(tx, due);
        return due;
      });
      for (const timer of batch) {
        this.logger.info({ organizationId: timer.organizationId, caseId: timer.caseId, clock: timer.clock, kind: timer.kind, lateMs: lateMs(timer) }, `case SLA ${timer.kind}`);
      }
      fired.push(...batch);
      if (batch.length < FIRE_BATCH) return fired;
    }
  }

  /** A case gone meanwhile has no one left to tell. */
  private async tell(tx: Transaction, timers: readonly FiredTimer[]): Promise<void> {
    const subjects = await this.locked(tx, timers);
    const runs = new Map<Case, OnSlaKind[]>();
    for (const timer of timers) {
      const subject = subjects.get(timer.caseId);
      if (!subject || subject.mode !== 'live') continue;
      const kind = timer.kind === 'warning' ? 'warning' : 'breached';
      // On the version the case runs on, as its status's runs are.
      if ((await this.workflows.version(subject.workflowId, subject.workflowVersion)).slaRunOf(kind)) runs.set(subject, [...(runs.get(subject) ?? []), kind]);
      const note: SlaNote = `sla_${kind}`;
      subject.note(note, { kind: 'engine' }, { clock: timer.clock, due_at: timer.dueAt?.toISOString() ?? null, late_ms: lateMs(timer) });
      const late = lateMs(timer) >= LATE_ENOUGH_TO_SAY_MS ? ` (fired ${Math.round(lateMs(timer) / 1000)} s late)` : '';
      const due = timer.dueAt === null ? '' : ` at ${timer.dueAt.toISOString()}`;
      const summary = timer.kind === 'warning'
        ? `Case #${timer.caseId}: ${clockLabel(timer.clock)} is due soon${due}${late}`
        : `Case #${timer.caseId}: ${clockLabel(timer.clock)} breached, due${due}${late}`;
      await this.notifications.notify({ organizationId: timer.organizationId, caseId: timer.caseId, kind: `sla_${kind}`, summary }, tx);
    }
    for (const subject of subjects.values()) await this.repository.save(tx, subject);
    for (const [subject, kinds] of runs) await this.repository.startSlaRuns(tx, subject, kinds);
  }

  /**
   * The timers' cases, locked after their timers (as every firing takes them) and in id order
   * across organizations, as a change of several cases locks them: another worker's batch
   * sharing some of them then never waits for this one in a circle. Each by its organization,
   * a statement per run of consecutive ids of one organization.
   */
  private async locked(tx: Transaction, timers: readonly FiredTimer[]): Promise<Map<number, Case>> {
    const cases = [...new Map(timers.map((timer) => [timer.caseId, timer.organizationId] as const)).entries()].sort(([a], [b]) => a - b);
    const subjects = new Map<number, Case>();
    for (let next = 0; next < cases.length; ) {
      const organizationId = cases[next]![1];
      const ids: number[] = [];
      for (; next < cases.length && cases[next]![1] === organizationId; next++) ids.push(cases[next]![0]);
      for (const [id, subject] of await this.repository.lock(tx, organizationId, ids)) subjects.set(id, subject);
    }
    return subjects;
  }
}

/** Lateness under this is the sweep's own rhythm, not worth a word in a notification. */
const LATE_ENOUGH_TO_SAY_MS = 5000;

function lateMs(timer: FiredTimer): number {
  return Math.max(0, timer.firedAt.getTime() - timer.fireAt.getTime());
}

function clockLabel(clock: FiredTimer['clock']): string {
  return clock.replace('_', ' ');
}
