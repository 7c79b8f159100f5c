import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email intake: cases may come in by email (and, next, from the hosted form); each email
 * workflow has a secret address; a case keeps the attachments of its messages and the
 * Message-IDs replies are threaded by. Attachments and Message-IDs go with their case when it
 * is deleted (retention).
 */
export class EmailIntake1763810000000 implements MigrationInterface {
  name = 'EmailIntake1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE cases DROP CONSTRAINT cases_source_check,
        ADD CONSTRAINT cases_source_check CHECK (source IN ('API', 'Webhook', 'Email', 'Form'));

      -- The secret local part of a workflow's inbound address: SHA-256 to find the workflow
      -- at RCPT time, AES-256-GCM ciphertext to show it again; never plain text.
      CREATE TABLE workflow_email_addresses (
        workflow_id       bigint PRIMARY KEY REFERENCES workflows (id),
        secret_hash       bytea NOT NULL UNIQUE,
        secret_ciphertext text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        rotated_at        timestamptz
      );

      -- The files a case received, bytes included (bounded by SMTP_MAX_MESSAGE_BYTES per message).
      CREATE TABLE case_attachments (
        id           uuid PRIMARY KEY,
        case_id      bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
        filename     text,
        content_type text NOT NULL,
        size         integer NOT NULL CHECK (size >= 0),
        sha256       bytea NOT NULL,
        content      bytea NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX case_attachments_case ON case_attachments (case_id);

      -- The Message-IDs of the messages on a case, so a reply (In-Reply-To / References) finds
      -- its case within the workflow.
      CREATE TABLE case_message_ids (
        workflow_id bigint NOT NULL,
        message_id  text NOT NULL,
        case_id     bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
        PRIMARY KEY (workflow_id, message_id)
      );
      CREATE INDEX case_message_ids_case ON case_message_ids (case_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE case_message_ids, case_attachments, workflow_email_addresses;
      ALTER TABLE cases DROP CONSTRAINT cases_source_check,
        ADD CONSTRAINT cases_source_check CHECK (source IN ('API', 'Webhook'));
    `);
  }
}
