import { parseJson } from './json.ts';
import { currentSession, signOut } from './session.ts';

/** The admin API (docs: /docs, contract: admin-api.md); the dashboard has no other back door. */
const API_BASE = '/api/admin/v1';

export interface ValidationProblem {
  path: string;
  error: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly validationErrors: ValidationProblem[] = [],
    /** Set when the organization already holds as many as a cap allows (`MAX_..._PER_ORGANIZATION`). */
    readonly cap: { setting: string; limit: number } | null = null,
  ) {
    super(message);
  }
}

export const SIGNED_OUT_NOTICE = 'You were signed out: the admin token was not accepted (it may have been deleted). Sign in again.';

interface RequestOptions {
  body?: unknown;
  /** Sent exactly as typed (the definition editor), so numbers and key order survive. */
  rawBody?: string;
  /** The token to use instead of the session's (checking a token at sign-in). */
  token?: string;
  /** A 401 signs the session out (except while checking a token at sign-in). */
  signOutOn401?: boolean;
}

/** Sends one call to the admin API with the session's token; a refusal becomes an ApiError (a 401 signs out). */
async function call(method: string, path: string, options: RequestOptions, accept: string): Promise<Response> {
  const token = options.token ?? currentSession().token;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { accept };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(API_BASE + path, { method, headers, body, cache: 'no-store', credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check your connection and try again.');
  }
  if (response.ok) return response;
  const payload = (parsedOrUndefined(await response.text()) ?? {}) as { error?: unknown; validation_errors?: ValidationProblem[]; cap?: unknown; limit?: unknown };
  const message = typeof payload.error === 'string' ? payload.error : `The service answered ${response.status}.`;
  if (response.status === 401 && options.signOutOn401 !== false) signOut(SIGNED_OUT_NOTICE);
  const cap = typeof payload.cap === 'string' && typeof payload.limit === 'number' ? { setting: payload.cap, limit: payload.limit } : null;
  throw new ApiError(response.status, message, Array.isArray(payload.validation_errors) ? payload.validation_errors : [], cap);
}

function parsedOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : parseJson(text);
  } catch {
    return undefined;
  }
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await call(method, path, options, 'application/json');
  return parsedOrUndefined(await response.text()) as T;
}

/** A file the API serves as a download (an email attachment): its bytes, read with the bearer token a plain link could not send. */
export async function download(path: string): Promise<Blob> {
  const response = await call('GET', path, {}, '*/*');
  return response.blob();
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, options?: RequestOptions) => request<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) => request<T>('PUT', path, options),
  patch: <T>(path: string, options?: RequestOptions) => request<T>('PATCH', path, options),
  delete: (path: string) => request<void>('DELETE', path),
};

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/* Shapes of the admin API's answers (admin-api.md). */

export interface Workflow {
  id: number;
  name: string;
  /** `direct`, `ticketing`, `email`, or an extension's case source (docs/extending.md). */
  case_source: string;
  sensitive_data: boolean;
  statuses: string[];
  attributes: Record<string, { type: string; required?: boolean; enum?: unknown[]; format?: string }>;
  automations: Record<string, unknown[]>;
  default_outcome: string | null;
  /** One case per delivery key on the webhook; null: a case per POST. */
  webhook_dedup: { key: string; window_seconds: number } | null;
  published: boolean;
  version: number | null;
  /** Whether the draft differs from the latest published version: publishing makes a new version only then. */
  draft_changed: boolean;
  created_at: string;
  updated_at: string;
}

export interface Webhook {
  url: string;
  token: string;
}

/** An email workflow's secret inbound address (channels.md). */
export interface EmailAddress {
  address: string;
}

/** A ticketing workflow's hosted request form (channels.md). */
export interface HostedForm {
  url: string;
}

export interface Token {
  id: number;
  name: string;
  scope: 'api' | 'admin';
  created_at: string;
  last_used_at: string | null;
}

/** Where a case came in: the cases API, the incoming webhook, the inbound email address or the hosted request form. */
export const CASE_SOURCES = ['API', 'Webhook', 'Email', 'Form'] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];

export interface Case {
  id: number;
  workflow_id: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: 'live' | 'test';
  /** One of CASE_SOURCES, or an extension's source type. */
  source_type: string;
  attributes: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface Mailbox {
  address: string;
  /** Empty when the header gave an address only. */
  name: string;
}

export interface EmailAttachment {
  id: string;
  filename: string | null;
  content_type: string;
  size: number;
  /** Hex. */
  sha256: string;
}

/** The `email` attribute of a case that came by email, and the fields of an `email_received` timeline event (channels.md). */
export interface EmailMessage {
  from: Mailbox | null;
  to: Mailbox[];
  cc: Mailbox[];
  subject: string | null;
  text: string | null;
  /** As sent: never put into the dashboard's own page. */
  html: string | null;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  /** The Date header, ISO 8601; null when the message had none. */
  date: string | null;
  attachments: EmailAttachment[];
}

export interface CasePage {
  cases: Case[];
  next_cursor: string | null;
}

/** A page of a case's timeline, oldest first. */
export interface TimelinePage {
  events: TimelineEvent[];
  next_cursor: string | null;
}

export interface TimelineEvent {
  id: number;
  type: string;
  by: { type: string; id?: number };
  at: string;
  [detail: string]: unknown;
}

export interface Counts {
  cases: number;
  runs: number;
}

export interface Usage {
  from: string;
  to: string;
  live: Counts;
  test: Counts;
  workflows: { workflow_id: number; live: Counts; test: Counts }[];
}

/** An event subscription (outbound webhooks, admin-api.md; recovery: integrations.md §4). */
export interface Subscription {
  id: number;
  url: string;
  events: string[];
  /** Null: every workflow of the organization. */
  workflow_ids: number[] | null;
  created_at: string;
  failing_since: string | null;
  status: 'active' | 'disabled';
  disabled_at: string | null;
  disabled_reason: string | null;
}

/** What a subscription can be sent (integrations.md). */
export const SUBSCRIPTION_EVENTS = ['case.created', 'case.status_changed', 'case.closed', 'case.reopened', 'case.errored', 'case.email_received'] as const;

/** A scheduled report digest by email (reporting.md). */
export interface Digest {
  id: number;
  schedule: 'daily' | 'weekly';
  hour_utc: number;
  /** ISO weekday, 1 (Monday) to 7; null on a daily digest. */
  weekday: number | null;
  recipients: string[];
  confirmed_recipients: string[];
  unsubscribed_recipients: string[];
  workflow_ids: number[] | null;
  created_at: string;
  last_sent_at: string | null;
  last_failed_at: string | null;
  last_error: string | null;
}

/** One attempt to deliver one event; `delivery_id` is what a retry names. */
export interface DeliveryAttempt {
  delivery_id: number;
  event_id: string;
  event_type: string;
  case_id: number;
  attempt: number;
  status_code: number | null;
  error: string | null;
  delivered: boolean;
  attempted_at: string;
}

/** GET /reports/cases: live cases only. */
export interface CaseReport {
  from: string;
  to: string;
  interval: 'hour' | 'day' | 'week';
  series: { start: string; created: number; closed: number; errored: number; created_by_source: Record<CaseSource, number> }[];
  totals: { created: number; closed: number; errored: number; reopened: number };
  time_to_close_seconds: { p50: number | null; p90: number | null; count: number };
  open_by_status: Record<string, number>;
  top_errors: { message: string; count: number }[];
}

/** Days kept, per kind of finished work; `closed_cases_days` 0 keeps closed cases. */
export interface RetentionPeriods {
  runs_days: number;
  deliveries_days: number;
  closed_cases_days: number;
}

export interface RetentionSettings {
  /** In force: the organization's own period where it set one, the deployment's default otherwise. */
  retention: RetentionPeriods;
  /** What the organization set; null follows the default. */
  overrides: { [K in keyof RetentionPeriods]: number | null };
  /** The deployment's defaults (they may be fractions of a day). */
  defaults: RetentionPeriods;
}

/** Open, Closed and Error exist in every workflow and are not declared in a definition. */
export const BUILT_IN_STATUSES = ['Open', 'Closed', 'Error'];
