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

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const token = options.token ?? currentSession().token;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(API_BASE + path, { method, headers, body, cache: 'no-store', credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : parseJson(text);
  } catch {
    json = undefined;
  }
  if (response.ok) return json as T;
  const payload = (json ?? {}) as { error?: unknown; validation_errors?: ValidationProblem[] };
  const message = typeof payload.error === 'string' ? payload.error : `The service answered ${response.status}.`;
  if (response.status === 401 && options.signOutOn401 !== false) signOut(SIGNED_OUT_NOTICE);
  throw new ApiError(response.status, message, Array.isArray(payload.validation_errors) ? payload.validation_errors : []);
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, options?: RequestOptions) => request<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) => request<T>('PUT', path, options),
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
  case_source: 'direct' | 'ticketing' | 'email';
  sensitive_data: boolean;
  statuses: string[];
  attributes: Record<string, { type: string; required?: boolean; enum?: unknown[]; format?: string }>;
  automations: Record<string, unknown[]>;
  default_outcome: string | null;
  published: boolean;
  version: number | null;
  created_at: string;
  updated_at: string;
}

export interface Webhook {
  url: string;
  token: string;
}

export interface Token {
  id: number;
  name: string;
  scope: 'api' | 'admin';
  created_at: string;
  last_used_at: string | null;
}

export interface Case {
  id: number;
  workflow_id: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: 'live' | 'test';
  source_type: 'API' | 'Webhook';
  attributes: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface CasePage {
  cases: Case[];
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

/** Open, Closed and Error exist in every workflow and are not declared in a definition. */
export const BUILT_IN_STATUSES = ['Open', 'Closed', 'Error'];
