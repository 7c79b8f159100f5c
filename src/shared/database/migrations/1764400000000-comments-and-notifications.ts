import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Working cases as a team (casework.md sections 3 and 4), all owned by the comments module:
 * - `case_comments`: internal notes and public replies; the body is stored here once, and
 *   nothing else (timeline, notifications, mails) copies it.
 * - `comment_mails`: a public reply's mail to the requester, written in the comment's
 *   transaction and sent by a worker under a lease; its Message-ID is fixed when it is queued,
 *   so every attempt sends the same message. Kept after sending (its status is on the comment).
 * - `case_watchers`: who watches a case (the assignee counts without a row).
 * - `notification_preferences`: a person's kinds turned off (no row: all on).
 * - `notification_items` and `notification_batches`: what happened for a person on a case, and
 *   the one pending mail per person and case that summarizes it, due at most once a minute.
 * Rows of a case go with it at the retention purge (the comments module's case statement part).
 * `outbox_events.details` (the subscriptions module's) holds what an event tells besides the
 * case: a `case.commented`'s comment (a public reply's body, never a note's).
 */
export class CommentsAndNotifications1764400000000 implements MigrationInterface {
  name = 'CommentsAndNotifications1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE outbox_events ADD COLUMN details jsonb;

      CREATE TABLE case_comments (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        case_id         bigint NOT NULL,
        author_user_id  bigint,
        author_name     text NOT NULL,
        visibility      text NOT NULL CHECK (visibility IN ('internal', 'public')),
        body            text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX case_comments_case ON case_comments (organization_id, case_id, id);

      CREATE TABLE comment_mails (
        organization_id bigint NOT NULL,
        comment_id      bigint NOT NULL,
        case_id         bigint NOT NULL,
        from_address    text NOT NULL,
        to_addresses    text[] NOT NULL,
        subject         text NOT NULL,
        message_id      text NOT NULL,
        in_reply_to     text,
        thread          text[] NOT NULL DEFAULT '{}',
        status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        error           text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until    timestamptz,
        sent_at         timestamptz,
        PRIMARY KEY (organization_id, comment_id),
        FOREIGN KEY (organization_id, comment_id) REFERENCES case_comments (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX comment_mails_due ON comment_mails (organization_id, next_attempt_at) WHERE status = 'queued';

      CREATE TABLE case_watchers (
        organization_id bigint NOT NULL,
        case_id         bigint NOT NULL,
        user_id         bigint NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, case_id, user_id)
      );
      CREATE INDEX case_watchers_user ON case_watchers (organization_id, user_id, case_id);

      CREATE TABLE notification_preferences (
        organization_id bigint NOT NULL,
        user_id         bigint NOT NULL,
        assigned        boolean NOT NULL DEFAULT true,
        mentioned       boolean NOT NULL DEFAULT true,
        watched         boolean NOT NULL DEFAULT true,
        PRIMARY KEY (organization_id, user_id)
      );

      CREATE TABLE notification_batches (
        organization_id bigint NOT NULL,
        user_id         bigint NOT NULL,
        case_id         bigint NOT NULL,
        due_at          timestamptz,
        last_sent_at    timestamptz,
        attempts        integer NOT NULL DEFAULT 0,
        locked_until    timestamptz,
        PRIMARY KEY (organization_id, user_id, case_id)
      );
      CREATE INDEX notification_batches_due ON notification_batches (organization_id, due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX notification_batches_case ON notification_batches (organization_id, case_id);

      CREATE TABLE notification_items (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        user_id         bigint NOT NULL,
        case_id         bigint NOT NULL,
        kind            text NOT NULL,
        summary         text NOT NULL CHECK (length(summary) <= 300),
        comment_id      bigint,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, user_id, case_id) REFERENCES notification_batches (organization_id, user_id, case_id) ON DELETE CASCADE
      );
      CREATE INDEX notification_items_batch ON notification_items (organization_id, user_id, case_id, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE notification_items, notification_batches, notification_preferences, case_watchers, comment_mails, case_comments');
    await q.query('ALTER TABLE outbox_events DROP COLUMN details');
  }
}
