export const OPEN = 'Open';
export const CLOSED = 'Closed';
export const ERROR = 'Error';
/** Every workflow has these; a definition declares only its custom statuses. */
export const DEFAULT_STATUSES = [OPEN, CLOSED, ERROR] as const;

/** What a case needs to know about the workflow version it runs on. */
export interface StatusRules {
  readonly statuses: ReadonlySet<string>;
  readonly defaultOutcome: string | null;
  /** Whether entering `status` starts a run of the workflow's automation. */
  hasRun(status: string): boolean;
}
