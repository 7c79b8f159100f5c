import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { type prepared, rowsIn, statement } from './persistence.js';
import type { ReceivedMessage } from '../domain/case.js';
import type { ReplyUsage } from '../domain/case.repository.js';

/** One attachment per statement: its bytes go as one binary parameter, never as text. */
const INSERT_ATTACHMENT = statement(`
  INSERT INTO case_attachments (id, case_id, filename, content_type, size, sha256, content)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`);

/** A Message-ID already on a case of the workflow keeps its case (a message sent twice is one case). */
const INSERT_MESSAGE_ID = statement(`
  INSERT INTO case_message_ids (workflow_id, message_id, case_id) VALUES ($1, $2, $3)
  ON CONFLICT (workflow_id, message_id) DO NOTHING`);

const CASES_BY_MESSAGE_ID = statement(
  `
  SELECT message_id, case_id FROM case_message_ids WHERE workflow_id = $1 AND message_id = ANY($2::text[])`,
  { message_id: column.text, case_id: column.int8 },
);

/**
 * The stored size of the replies' fields (as Postgres keeps them: pg_column_size reads no
 * TOASTed value, where the text would be read whole) and the files' sizes, from their columns.
 */
const REPLY_USAGE = statement(
  `
  SELECT r.replies, r.bytes + (SELECT coalesce(sum(size), 0) FROM case_attachments WHERE case_id = $1) AS bytes
  FROM (SELECT count(*) AS replies, coalesce(sum(pg_column_size(data)), 0) AS bytes FROM case_events WHERE organization_id = (SELECT organization_id FROM cases WHERE id = $1) AND case_id = $1 AND type = 'email_received') r`,
  { replies: column.int8, bytes: column.int8 },
);

/** Stores what a case keeps of a message it received, inside the transaction that stores the case's change. */
export async function storeReceivedMessage(tx: Transaction, caseId: number, workflowId: number, message: ReceivedMessage): Promise<void> {
  for (const a of message.attachments) {
    await rowsIn(tx, INSERT_ATTACHMENT, [a.id, caseId, a.filename, a.contentType, a.content.length, a.sha256, a.content]);
  }
  if (message.messageId !== null) await rowsIn(tx, INSERT_MESSAGE_ID, [workflowId, message.messageId, caseId]);
}

export async function casesByMessageId(statements: ReturnType<typeof prepared>, workflowId: number, messageIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await statements.rows(CASES_BY_MESSAGE_ID, [workflowId, messageIds]);
  return new Map(rows.map((row) => [row.message_id, Number(row.case_id)]));
}

export async function replyUsage(statements: ReturnType<typeof prepared>, caseId: number): Promise<ReplyUsage> {
  const [row] = await statements.rows(REPLY_USAGE, [caseId]);
  return { replies: Number(row!.replies), bytes: Number(row!.bytes) };
}
