import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { rowsOf, statement } from './persistence.js';
import { type CaseRef, type CommentBody, CommentStore, type NewComment, type QueuedReply } from '../application/comment-ports.js';
import type { Comment, Visibility } from '../domain/comment.js';

const COMMENT_COLUMNS = `c.organization_id, c.id, c.case_id, c.author_user_id, c.author_name, c.visibility, c.body, c.created_at, m.to_addresses, m.status`;
const COMMENT_ROW = {
  organization_id: column.int8,
  id: column.int8,
  case_id: column.int8,
  author_user_id: column.nullable(column.int8),
  author_name: column.text,
  visibility: column.textOf<Visibility>(),
  body: column.text,
  created_at: column.timestamptz,
  to_addresses: column.nullable(column.textArray),
  status: column.nullable(column.textOf<'queued' | 'sent' | 'failed'>()),
};
type CommentRow = RowOf<typeof COMMENT_ROW>;

const INSERT = statement(
  `WITH c AS (
     INSERT INTO case_comments (organization_id, case_id, author_user_id, author_name, visibility, body)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *
   ), m AS (
     INSERT INTO comment_mails (organization_id, comment_id, case_id, from_address, to_addresses, subject, message_id, in_reply_to, thread)
     SELECT c.organization_id, c.id, c.case_id, $7, $8, $9, $10, $11, $12 FROM c WHERE $7::text IS NOT NULL
     RETURNING comment_id, to_addresses, status
   )
   SELECT ${COMMENT_COLUMNS} FROM c LEFT JOIN m ON m.comment_id = c.id`,
  COMMENT_ROW,
);
const LIST = statement(
  `SELECT ${COMMENT_COLUMNS} FROM case_comments c
   LEFT JOIN comment_mails m ON m.organization_id = c.organization_id AND m.comment_id = c.id
   WHERE c.organization_id = $1 AND c.case_id = ANY($2::bigint[]) AND c.id > $3
   ORDER BY c.id LIMIT $4`,
  COMMENT_ROW,
);
const BODIES = statement(
  `SELECT case_id, id, body FROM (
     SELECT c.case_id, c.id, left(c.body, $3) AS body,
            coalesce(sum(least(length(c.body), $3)) OVER (PARTITION BY c.organization_id, c.case_id ORDER BY c.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
     FROM unnest($1::bigint[], $2::bigint[]) AS k(organization_id, case_id)
     JOIN case_comments c ON c.organization_id = k.organization_id AND c.case_id = k.case_id
   ) c WHERE before < $4 ORDER BY case_id, id`,
  { case_id: column.int8, id: column.int8, body: column.text },
);

function toComment(row: CommentRow): Comment {
  const userId = row.author_user_id === null ? null : Number(row.author_user_id);
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    caseId: Number(row.case_id),
    author: { id: userId, email: userId === null ? null : row.author_name, name: row.author_name },
    visibility: row.visibility,
    body: row.body,
    createdAt: row.created_at,
    delivery: row.status === null ? null : { to: row.to_addresses ?? [], status: row.status },
  };
}

@Injectable()
export class PostgresCommentStore extends CommentStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async insert(tx: Transaction, comment: NewComment, reply: QueuedReply | null): Promise<Comment> {
    const [row] = await rowsOf(entityManager(tx), INSERT, [
      comment.organizationId, comment.caseId, comment.author.id, comment.author.name, comment.visibility, comment.body,
      reply?.from ?? null, reply?.to ?? null, reply?.subject ?? null, reply?.messageId ?? null, reply?.inReplyTo ?? null, reply?.references ?? [],
    ]);
    return toComment(row!);
  }

  /** The comments of cases merged into the case are shown on it too (casework.md section 6), in one order by id. */
  async list(organizationId: number, caseIds: readonly number[], afterId: number, limit: number): Promise<Comment[]> {
    const rows = await rowsOf(this.db, LIST, [organizationId, caseIds, afterId, limit]);
    return rows.map(toComment);
  }

  async bodies(cases: readonly CaseRef[], maxChars: number, maxCaseChars: number): Promise<CommentBody[]> {
    if (!cases.length) return [];
    const rows = await rowsOf(this.db, BODIES, [cases.map((c) => c.organizationId), cases.map((c) => c.id), maxChars, maxCaseChars]);
    return rows.map((row) => ({ caseId: Number(row.case_id), id: Number(row.id), body: row.body }));
  }
}
