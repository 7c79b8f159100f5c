/** The runner's knobs, from the environment (all optional). */

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(raw)}`);
  return value;
}

export const SETTINGS = {
  /** Requests per second of the fault scenarios. */
  rate: positiveNumber('FAULTS_RATE', 40),
  soakSeconds: positiveNumber('FAULTS_SOAK_SECONDS', 300),
  soakRate: positiveNumber('FAULTS_SOAK_RATE', 50),
  /**
   * How long the runs and deliveries of a scenario may take to catch up once its load stopped:
   * the longest legitimate wait is a delivery whose job was lost (Redis restarted), taken again
   * by the relay 60 s after it was enqueued.
   */
  catchUpMs: positiveNumber('FAULTS_CATCH_UP_SECONDS', 65) * 1000,
};
