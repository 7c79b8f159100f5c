import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service levels (sla.md): an organization's business-hours calendars, and one SLA policy per
 * workflow naming one of them. A policy holds its calendar by key, so a calendar in use cannot
 * go; the index finds the policies of a calendar when one is to be deleted.
 */
export class Sla1764200000000 implements MigrationInterface {
  name = 'Sla1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE business_calendars (
        organization_id bigint NOT NULL REFERENCES organizations (id),
        name            text NOT NULL CHECK (name ~ '^[A-Za-z0-9 _-]{1,64}$'),
        time_zone       text NOT NULL,
        hours           jsonb NOT NULL,
        holidays        jsonb NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, name)
      );
      CREATE TABLE sla_policies (
        organization_id bigint NOT NULL,
        workflow_id     bigint NOT NULL REFERENCES workflows (id),
        calendar_name   text NOT NULL,
        targets         jsonb NOT NULL,
        pause_statuses  jsonb NOT NULL,
        warn_before     text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, workflow_id),
        FOREIGN KEY (organization_id, calendar_name) REFERENCES business_calendars (organization_id, name)
      );
      CREATE INDEX sla_policies_by_calendar ON sla_policies (organization_id, calendar_name);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sla_policies, business_calendars');
  }
}
