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
   * generous against the relays' few seconds before they take lost work again, and a delivery's
   * retry after a refused attempt.
   */
  catchUpMs: positiveNumber('FAULTS_CATCH_UP_SECONDS', 65) * 1000,
};
