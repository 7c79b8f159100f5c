/** What one benchmark run found, as report.ts renders it and run-bench.ts writes it out raw. */
import type { AutomationResult } from './automation.js';
import type { BigBodiesResult } from './big-bodies.js';
import type { BudgetResult } from './budget.js';
import type { CapacityResult } from './capacity.js';
import type { BenchConfig } from './context.js';
import type { DrainResult } from './drain.js';
import type { GrowthStep } from './growth.js';
import type { ScenarioResult } from './http-scenarios.js';
import type { Measurement } from './load.js';
import type { NoisyResult } from './noisy-neighbour.js';
import type { SearchResult } from './search.js';
import type { SlaSweepResult } from './sla-sweep.js';
import type { RegressionResult } from './regression.js';
import type { PgbenchReference } from './pgbench-reference.js';
import type { SyncStep } from './sync.js';
import type { VerifiedWebhookResult } from './verified-webhook.js';
import type { ReportsResult } from './reports.js';

export interface MachineInfo {
  date: string;
  cpuModel: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  postgres: string;
  postgresSettings: Record<string, string>;
  redis: string;
  loadAverageAtStart: number[];
  /** The commit measured. */
  code: string;
}

export interface BenchResults {
  machine: MachineInfo;
  config: BenchConfig;
  scenarios: ScenarioResult[];
  peakRssMb: { service: number | null; baseline: number | null; lean: number | null };
  pgbench: PgbenchReference | null;
  pgbenchFailure: string | null;
  bigBodies: BigBodiesResult | null;
  bigBodiesFailure: string | null;
  verifiedWebhook: VerifiedWebhookResult | null;
  verifiedWebhookFailure: string | null;
  automation: AutomationResult | null;
  automationFailure: string | null;
  capacity: CapacityResult | null;
  capacityFailure: string | null;
  drain: DrainResult | null;
  drainFailure: string | null;
  budget: BudgetResult | null;
  budgetFailure: string | null;
  growth: GrowthStep[];
  growthFailure: string | null;
  sync: SyncStep[];
  syncFailure: string | null;
  reports: ReportsResult | null;
  reportsFailure: string | null;
  noisy: NoisyResult | null;
  noisyFailure: string | null;
  search: SearchResult | null;
  searchFailure: string | null;
  slaSweep: SlaSweepResult | null;
  slaSweepFailure: string | null;
  regression: RegressionResult | null;
  regressionFailure: string | null;
  failures: string[];
  totalSec: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean | null;
}

export const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
export const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
export const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : '–');
export const mark = (pass: boolean | null) => (pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL');
export const errorCount = (m: Measurement) => m.errors + m.timeouts;
/** Cores' worth of CPU the rest of the machine used during a run (other users: interference). */
export const otherCores = (m: Measurement) => m.cpu.otherMs / m.cpu.wallMs;
/** A median with the lowest and highest value of its rounds, when they differ. */
export function withSpread(median: string, [low, high]: [number, number], format: (v: number) => string): string {
  return Number.isFinite(low) && low !== high ? `${median} (${format(low)}–${format(high)})` : median;
}
