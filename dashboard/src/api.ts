import type { components, operations } from './api-schema.generated.ts';
import { parseJson } from './json.ts';
import { currentSession, signedInAsPerson, signedInWithToken, signedOut, storedToken } from './session.ts';

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
/** How long the load waits before asking again who is signed in, when the service gave no answer (a restart, a network blip). */
const RESUME_RETRY_DELAYS_MS = [500, 1_500, 4_000];
export const UNREACHABLE_NOTICE = 'The service could not be reached to check whether you are signed in. Reload the page to try again.';
export const SESSION_ENDED_NOTICE = 'You were signed out: your session ended (it expired, was signed out elsewhere, or your access was removed). Sign in again.';

interface RequestOptions {
  body?: unknown;
  /** Sent exactly as typed (the definition editor), so numbers and key order survive. */
  rawBody?: string;
  /** The token to use instead of the session's (checking a token at sign-in). */
  token?: string;
  /** A 401 signs the session out (except while checking a token at sign-in). */
  signOutOn401?: boolean;
}

/**
 * Sends one call to the service: with the admin token as bearer in token mode, else with the
 * session cookie (and the session's CSRF token on a change). A refusal becomes an ApiError; a
 * 401 signs out.
 */
async function call(method: string, url: string, options: RequestOptions, accept: string): Promise<Response> {
  const session = currentSession();
  const token = options.token ?? (session.kind === 'token' ? session.token : undefined);
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { accept };
  if (token) headers.authorization = `Bearer ${token}`;
  else if (session.kind === 'person' && method !== 'GET') headers['x-csrf-token'] = session.csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    // `same-origin`: under the page's no-referrer policy a browser may send `Origin: null`, which the service refuses on a session's change; the service is the only one told.
    response = await fetch(url, { method, headers, body, cache: 'no-store', credentials: token ? 'omit' : 'same-origin', referrerPolicy: 'same-origin' });
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check your connection and try again.');
  }
  if (response.ok) return response;
  const payload = (parsedOrUndefined(await response.text()) ?? {}) as { error?: unknown; validation_errors?: ValidationProblem[]; cap?: unknown; limit?: unknown };
  const message = typeof payload.error === 'string' ? payload.error : `The service answered ${response.status}.`;
  if (response.status === 401 && options.signOutOn401 !== false) signedOut(session.kind === 'person' ? SESSION_ENDED_NOTICE : SIGNED_OUT_NOTICE);
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
  const response = await call(method, API_BASE + path, options, 'application/json');
  return parsedOrUndefined(await response.text()) as T;
}

/** A file the API serves as a download (an email attachment): its bytes, read with the bearer token a plain link could not send. */
export async function download(path: string): Promise<Blob> {
  const response = await call('GET', API_BASE + path, {}, '*/*');
  return response.blob();
}

/**
 * On load: a person's session if the cookie holds one (GET /me answers), else the admin token
 * this tab kept, else signed out (saying so when the service never answered).
 */
export async function resumeSession(): Promise<void> {
  const me = await askWhoIsSignedIn();
  if (me !== 'unreachable' && me?.caller.type === 'user' && me.csrf_token) return signedInAsPerson(me.caller.name, me.caller.id, me.role, me.csrf_token, me.organization.id);
  const token = storedToken();
  if (token) signedInWithToken(token);
  else signedOut(me === 'unreachable' ? UNREACHABLE_NOTICE : null);
}

/**
 * GET /me; null for a 401 (no session). Any other failure is asked again a few times, so a
 * service restarting does not send a signed-in person to the sign-in page.
 */
async function askWhoIsSignedIn(): Promise<Schemas['Me'] | null | 'unreachable'> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request<Schemas['Me']>('GET', '/me', { signOutOn401: false });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) return null;
      if (attempt === RESUME_RETRY_DELAYS_MS.length) return 'unreachable';
      await new Promise((resolve) => setTimeout(resolve, RESUME_RETRY_DELAYS_MS[attempt]));
    }
  }
}

/** Mails a one-time sign-in link if the address is a user's (the service answers 202 either way). */
export async function requestSignInLink(email: string): Promise<void> {
  await call('POST', '/auth/email', { body: { email }, signOutOn401: false }, 'application/json');
}

/** Ends a person's session at the service (the cookie goes with it), or forgets the admin token. */
export async function signOut(): Promise<void> {
  if (currentSession().kind === 'person') await call('POST', '/auth/sign_out', { signOutOn401: false }, 'application/json');
  signedOut('You signed out.');
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

/*
 * Shapes of the admin API's answers, generated from the service's OpenAPI document
 * (api-schema.generated.ts): a field the service changes shows up here as a type error.
 */
export type Schemas = components['schemas'];

export type Workflow = Schemas['Workflow'];
export type WorkflowName = Schemas['WorkflowName'];
/** A step type a definition may use, with the JSON Schema of its arguments (the builder's forms). */
export type StepType = operations['listStepTypes']['responses'][200]['content']['application/json']['step_types'][number];
/** An organization secret, by name only: what `{{ secrets.NAME }}` may name. */
export type Secret = Schemas['Secret'];
export type Webhook = Schemas['Webhook'];
/** An email workflow's secret inbound address (channels.md). */
export type EmailAddress = Schemas['EmailAddress'];
/** A ticketing workflow's hosted request form (channels.md). */
export type HostedForm = Schemas['RequestForm'];
export type Token = Schemas['Token'];
export type Case = Schemas['CaseWithSource'];
/** Where a case came in: the built-in sources (the cases API, the incoming webhook, the inbound email address, the hosted request form) or an extension's source type. */
export const CASE_SOURCES = ['API', 'Webhook', 'Email', 'Form'] as const satisfies readonly Case['source_type'][];
export type BuiltInCaseSource = (typeof CASE_SOURCES)[number];

/** A case of the admin list: with `q`, where it matched. */
export type CaseInList = Schemas['CaseInList'];

export interface CasePage {
  cases: CaseInList[];
  next_cursor: string | null;
}

/** A page of a case's timeline, oldest first. */
export interface TimelinePage {
  events: TimelineEvent[];
  next_cursor: string | null;
}
export type TimelineEvent = Schemas['TimelineEvent'];
export type CaseRun = Schemas['Run'];
export type RunStep = Schemas['RunStep'];
/** A page of a case's runs with their traces, oldest first. */
export interface CaseRunsPage {
  runs: CaseRun[];
  next_cursor: string | null;
}
export type EmailAttachment = Schemas['EmailAttachment'];

/**
 * The `email` attribute of a case that came by email, and the fields of an `email_received`
 * timeline event (channels.md): attribute content, which the OpenAPI document leaves open.
 */
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

export interface Mailbox {
  address: string;
  /** Empty when the header gave an address only. */
  name: string;
}

export type Usage = Schemas['Usage'];
export type Counts = Usage['live'];
/** An event subscription (outbound webhooks, admin-api.md; recovery: integrations.md section 4). */
export type Subscription = Schemas['Subscription'];
/** What a subscription can be sent (integrations.md). */
export const SUBSCRIPTION_EVENTS = ['case.created', 'case.status_changed', 'case.closed', 'case.reopened', 'case.errored', 'case.email_received', 'case.assigned'] as const satisfies readonly Subscription['events'][number][];
/** A scheduled report digest by email (reporting.md). */
export type Digest = Schemas['Digest'];
/** One attempt to deliver one event; `delivery_id` is what a retry names. */
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
/** GET /reports/cases: live cases only. */
export type CaseReport = Schemas['CaseReport'];
export type RetentionSettings = Schemas['Retention'];
export type Me = Schemas['Me'];
export type SsoConfiguration = Schemas['SsoConfiguration'];
/** Days kept, per kind of finished work; `closed_cases_days` 0 keeps closed cases. */
export type RetentionPeriods = RetentionSettings['retention'];

/** Open, Closed and Error exist in every workflow and are not declared in a definition. */
export const BUILT_IN_STATUSES = ['Open', 'Closed', 'Error'];
/** One change made through the admin or operator API (people.md section 3). */
export type AuditEntry = Schemas['AuditEntry'];
/** A person of the organization, with their role (people.md section 1). */
export type User = Schemas['User'];
