import type { StepTypeDefinition } from '../../../extension-api/step-types.js';
import type { Run } from '../../cases/domain/run.js';
import type { RunRef } from '../../cases/domain/run-queue.js';

/** Keeps a run that waits on the outside world held by this worker (see `RUN_LEASE_MS`). */
export abstract class RunLeases {
  abstract renewLease(runId: number, leaseMs: number): Promise<void>;
}

/** Hands a parked run back to a worker when it is due. */
export abstract class RunScheduler {
  abstract resumeAt(ref: RunRef, at: Date): Promise<void>;
}

/** Counts runs as they start and finish. */
export abstract class RunMetrics {
  abstract runStarted(run: Run): void;
  abstract runFinished(run: Run, state: 'succeeded' | 'failed'): void;
}

/** The step types the service runs, by name: built-in and extensions' alike. */
export abstract class StepTypes {
  abstract get(type: string): StepTypeDefinition | undefined;
}
