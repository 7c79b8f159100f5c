import type { CaseMode, SourceType } from '../domain/case.js';

/** What intake counts (CaseMetrics implements it on the service's Prometheus registry). */
export abstract class IntakeMetrics {
  /** Counts live cases only: test cases are excluded from metrics. */
  abstract caseCreated(source: SourceType, mode: CaseMode): void;
}
