import type { CaseProps } from './case.js';

/** `sla` of the admin case representation (sla.md section 2): `policy`, and each clock that applies. */
export type CaseServiceLevelView = { policy: boolean } & Record<string, unknown>;

/** What the admin list filters by (`sla=`): a clock breached, or running within its warning time of its due time. */
export const SLA_FILTERS = ['breached', 'at_risk'] as const;
export type SlaFilter = (typeof SLA_FILTERS)[number];

export interface ServiceLevelReader {
  of(subject: CaseProps): Promise<CaseServiceLevelView>;
  /** A condition on the case row `c`: its clocks are in that state. */
  inState(c: string, state: SlaFilter): string;
  /** When the case row `c`'s soonest running clock is due, as a timestamptz expression; null when none runs. */
  nextDueAt(c: string): string;
}

/**
 * A case's service levels as the admin case shows them, filters and sorts by. The clocks are the
 * sla module's, which depends on cases, so it lends its reader at start (as comments lends
 * CaseWatchingSql); without it the admin case has no `sla`, and no case is breached or due.
 */
export class CaseServiceLevels {
  private lent?: ServiceLevelReader;

  lend(reader: ServiceLevelReader): void {
    if (this.lent) throw new Error('the case service levels were lent twice');
    this.lent = reader;
  }

  async of(subject: CaseProps): Promise<CaseServiceLevelView | undefined> {
    return this.lent?.of(subject);
  }

  inState(c: string, state: SlaFilter): string {
    return this.lent?.inState(c, state) ?? 'false';
  }

  nextDueAt(c: string): string {
    return this.lent?.nextDueAt(c) ?? 'NULL::timestamptz';
  }
}
