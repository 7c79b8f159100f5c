import type { AppErrorCode } from '../errors/app-error.js';

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  'auth.unauthorized': 401,
  'auth.forbidden': 403,
  'resource.not_found': 404,
  'request.invalid': 422,
  'request.malformed_json': 422,
  'request.unsupported_media_type': 415,
  'request.body_too_large': 413,
  'request.too_many_keys': 413,
  'request.rate_limited': 429,
  'attributes.validation_failed': 422,
  'workflow.definition_invalid': 422,
  'workflow.not_direct': 422,
  'workflow.not_published': 422,
  'case.status_not_allowed': 422,
  'idempotency.key_reused': 422,
  'feed.cursor_expired': 410,
  'subscription.disabled': 422,
  'digest.no_confirmed_recipient': 409,
  'organization.cap_reached': 422,
  'service.unavailable': 503,
};
