import type { CaseProps } from './case.js';

/** `sla` of the admin case representation (sla.md section 2): `policy`, and each clock that applies. */
export type CaseServiceLevelView = { policy: boolean } & Record<string, unknown>;

export interface ServiceLevelReader {
  of(subject: CaseProps): Promise<CaseServiceLevelView>;
}

/**
 * A case's service levels as the admin case shows them. The clocks are the sla module's, which
 * depends on cases, so it lends its reader at start (as comments lends CaseWatchingSql); without
 * it the admin case has no `sla`.
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
}
