import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763750000000 implements MigrationInterface {
  name = 'InitialSchema1763750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name       text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      -- Admin and API tokens: only the SHA-256 of the secret is stored.
      CREATE TABLE access_tokens (
        id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id),
        name            text NOT NULL,
        scope           text NOT NULL CHECK (scope IN ('api', 'admin')),
        token_hash      bytea NOT NULL UNIQUE,
        created_at      timestamptz NOT NULL DEFAULT now(),
        last_used_at    timestamptz,
        deleted_at      timestamptz
      );
      CREATE INDEX access_tokens_organization ON access_tokens (organization_id, id) WHERE deleted_at IS NULL;

      -- A workflow: its editable draft, its publication state and its webhook token
      -- (SHA-256 to find it, AES-256-GCM ciphertext to show it again; never plain text).
      CREATE TABLE workflows (
        id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id          bigint NOT NULL REFERENCES organizations (id),
        draft                    jsonb NOT NULL,
        published                boolean NOT NULL DEFAULT false,
        version                  integer,
        webhook_token_hash       bytea UNIQUE,
        webhook_token_ciphertext text,
        created_at               timestamptz NOT NULL DEFAULT now(),
        updated_at               timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX workflows_organization ON workflows (organization_id, id);

      -- Published versions are immutable; cases record the version they run on.
      CREATE TABLE workflow_versions (
        workflow_id bigint NOT NULL REFERENCES workflows (id),
        version     integer NOT NULL,
        definition  jsonb NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, version)
      );

      CREATE TABLE cases (
        id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id  bigint NOT NULL REFERENCES organizations (id),
        workflow_id      bigint NOT NULL,
        workflow_version integer NOT NULL,
        subject          text NOT NULL,
        status           text NOT NULL,
        outcome          text,
        mode             text NOT NULL CHECK (mode IN ('live', 'test')),
        source           text NOT NULL CHECK (source IN ('API', 'Webhook')),
        attributes       jsonb NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (workflow_id, workflow_version) REFERENCES workflow_versions (workflow_id, version)
      );
      -- Admin listing, newest first, with or without a workflow filter.
      CREATE INDEX cases_organization ON cases (organization_id, id DESC);
      CREATE INDEX cases_workflow ON cases (workflow_id, id DESC);
      -- Usage reports count cases per organization and period.
      CREATE INDEX cases_usage ON cases (organization_id, created_at);

      -- The timeline: every creation, status change, attribute change and run event.
      CREATE TABLE case_events (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        case_id    bigint NOT NULL REFERENCES cases (id),
        type       text NOT NULL,
        actor      text NOT NULL,
        data       jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX case_events_case ON case_events (case_id, id);

      -- One row per run of a status's automation, written with the status change that starts it.
      -- The engine resumes a run from current_step (an index into the run's compiled steps);
      -- locked_until is the lease of the worker executing it, resume_at the end of a wait or
      -- a retry backoff, enqueued_at when the relay last handed it to the queue.
      CREATE TABLE workflow_runs (
        id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        case_id          bigint NOT NULL REFERENCES cases (id),
        organization_id  bigint NOT NULL,
        workflow_id      bigint NOT NULL,
        workflow_version integer NOT NULL,
        status           text NOT NULL,
        mode             text NOT NULL CHECK (mode IN ('live', 'test')),
        chain_depth      integer NOT NULL DEFAULT 0,
        state            text NOT NULL DEFAULT 'pending'
                         CHECK (state IN ('pending', 'running', 'waiting', 'succeeded', 'failed', 'superseded')),
        current_step     integer NOT NULL DEFAULT 0,
        step_attempts    integer NOT NULL DEFAULT 0,
        attempts         integer NOT NULL DEFAULT 0,
        error            text,
        locked_until     timestamptz,
        resume_at        timestamptz,
        enqueued_at      timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        started_at       timestamptz,
        finished_at      timestamptz
      );
      CREATE INDEX workflow_runs_case ON workflow_runs (case_id, id);
      CREATE INDEX workflow_runs_unfinished ON workflow_runs (id) WHERE state IN ('pending', 'running', 'waiting');
      CREATE INDEX workflow_runs_usage ON workflow_runs (organization_id, created_at);

      -- Idempotency-Key replays of POST cases (24 hours).
      CREATE TABLE idempotency_keys (
        organization_id bigint NOT NULL REFERENCES organizations (id),
        key             text NOT NULL,
        request_hash    bytea NOT NULL,
        case_id         bigint NOT NULL REFERENCES cases (id),
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, key)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys, workflow_runs, case_events, cases, workflow_versions, workflows, access_tokens, organizations`);
  }
}
