import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The comments module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CASE_COMMENTS = table('case_comments', {
  organization_id: column.int8,
  id: column.int8,
  case_id: column.int8,
  author_user_id: column.nullable(column.int8),
  author_name: column.text,
  visibility: column.text,
  body: column.text,
  created_at: column.timestamptz,
});

export const COMMENT_MAILS = table('comment_mails', {
  organization_id: column.int8,
  comment_id: column.int8,
  case_id: column.int8,
  from_address: column.text,
  to_addresses: column.textArray,
  subject: column.text,
  message_id: column.text,
  in_reply_to: column.nullable(column.text),
  thread: column.textArray,
  status: column.text,
  attempts: column.int4,
  error: column.nullable(column.text),
  created_at: column.timestamptz,
  next_attempt_at: column.timestamptz,
  locked_until: column.nullable(column.timestamptz),
  sent_at: column.nullable(column.timestamptz),
});

export const CASE_WATCHERS = table('case_watchers', {
  organization_id: column.int8,
  case_id: column.int8,
  user_id: column.int8,
  created_at: column.timestamptz,
});

export const NOTIFICATION_PREFERENCES = table('notification_preferences', {
  organization_id: column.int8,
  user_id: column.int8,
  assigned: column.bool,
  mentioned: column.bool,
  watched: column.bool,
});

export const NOTIFICATION_BATCHES = table('notification_batches', {
  organization_id: column.int8,
  user_id: column.int8,
  case_id: column.int8,
  due_at: column.nullable(column.timestamptz),
  last_sent_at: column.nullable(column.timestamptz),
  attempts: column.int4,
  locked_until: column.nullable(column.timestamptz),
});

export const NOTIFICATION_ITEMS = table('notification_items', {
  organization_id: column.int8,
  id: column.int8,
  user_id: column.int8,
  case_id: column.int8,
  kind: column.text,
  summary: column.text,
  comment_id: column.nullable(column.int8),
  created_at: column.timestamptz,
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/comments', [
  CASE_COMMENTS, COMMENT_MAILS, CASE_WATCHERS, NOTIFICATION_PREFERENCES, NOTIFICATION_BATCHES, NOTIFICATION_ITEMS,
]);
