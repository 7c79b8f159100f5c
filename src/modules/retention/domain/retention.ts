/** How long each kind of data is kept, in days. */
export interface RetentionDays {
  /** Finished runs, counted from when they finished. */
  runsDays: number;
  /** Ended deliveries (delivered, or given up) and their attempts, counted from when they ended. */
  deliveriesDays: number;
  /** Closed cases, counted from their last change; 0 keeps them forever. */
  closedCasesDays: number;
  /** Audit entries, counted from the change: at least AUDIT_DAYS_MIN (people.md §3). */
  auditDays: number;
}

/** Audit entries are kept a year unless the organization chooses otherwise, and never less than 90 days. */
export const AUDIT_DAYS_DEFAULT = 365;
export const AUDIT_DAYS_MIN = 90;

export const RETENTION_SETTINGS = ['runsDays', 'deliveriesDays', 'closedCasesDays', 'auditDays'] as const satisfies readonly (keyof RetentionDays)[];

/** What an organization chose; null follows the deployment's default. */
export type RetentionOverrides = { [K in keyof RetentionDays]: number | null };

export const NO_OVERRIDES: RetentionOverrides = { runsDays: null, deliveriesDays: null, closedCasesDays: null, auditDays: null };

/** An organization's retention: what it chose, and the defaults for what it did not. */
export interface OrganizationRetention {
  inForce: RetentionDays;
  overrides: RetentionOverrides;
  defaults: RetentionDays;
}

export function organizationRetention(defaults: RetentionDays, overrides: RetentionOverrides): OrganizationRetention {
  const inForce = { ...defaults };
  for (const setting of RETENTION_SETTINGS) inForce[setting] = overrides[setting] ?? defaults[setting];
  return { inForce, overrides: { ...overrides }, defaults: { ...defaults } };
}
