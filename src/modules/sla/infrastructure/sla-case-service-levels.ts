import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CaseServiceLevels, type SlaFilter } from '../../cases/domain/case-service-levels.js';
import { CaseSlaService } from '../application/case-sla.service.js';

const timersOf = (c: string, alias: string) => `sla_timers ${alias} WHERE ${alias}.organization_id = ${c}.organization_id AND ${alias}.case_id = ${c}.id`;

/**
 * The admin case list's SLA filters and order, over `sla_timers` (kept by the worker's sweep a
 * pass behind the cases), each an index probe of the timers' key by (organization, case):
 * - breached: a breach's time passed (fired or about to be): a running clock past due, or one
 *   met late, keeps its breach; a clock met in time or paused before its due time has none.
 * - at risk: a warning's time passed while the breach of the same clock period is still ahead.
 * - the next due time: the soonest breach still ahead, which only a running clock has.
 */
const slaTimerSql = {
  inState(c: string, state: SlaFilter): string {
    if (state === 'breached') return `EXISTS (SELECT 1 FROM ${timersOf(c, 'b')} AND b.kind = 'breach' AND b.fire_at <= now())`;
    return `EXISTS (SELECT 1 FROM ${timersOf(c, 'w')} AND w.kind = 'warning' AND w.fire_at <= now()
              AND EXISTS (SELECT 1 FROM sla_timers b WHERE (b.organization_id, b.case_id, b.clock, b.period_started_at) = (w.organization_id, w.case_id, w.clock, w.period_started_at)
                            AND b.kind = 'breach' AND b.fired_at IS NULL AND b.fire_at > now()))`;
  },
  nextDueAt(c: string): string {
    return `(SELECT min(d.fire_at) FROM ${timersOf(c, 'd')} AND d.kind = 'breach' AND d.fired_at IS NULL AND d.fire_at > now())`;
  },
};

/** Lends the cases module the clocks of the admin case and the list's SQL, without its depending on this module. */
@Injectable()
export class SlaCaseServiceLevels implements OnModuleInit {
  constructor(private readonly clocks: CaseSlaService, private readonly serviceLevels: CaseServiceLevels) {}

  onModuleInit(): void {
    this.serviceLevels.lend({ of: (subject) => this.clocks.of(subject), ...slaTimerSql });
  }
}
