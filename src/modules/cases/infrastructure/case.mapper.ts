import type { Actor, CaseEvent, CaseProps } from '../domain/case.js';

/** A `cases` row as the repository selects it (see CASE_COLUMNS). */
export interface CaseRow {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_version: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: CaseProps['mode'];
  source: CaseProps['source'];
  attributes: string;
  created_at: Date;
  updated_at: Date;
}

export const CASE_COLUMNS = `id, organization_id, workflow_id, workflow_version, subject, status, outcome, mode, source,
  attributes::text AS attributes, created_at, updated_at`;

export function toProps(row: CaseRow): CaseProps {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    workflowId: Number(row.workflow_id),
    workflowVersion: row.workflow_version,
    subject: row.subject,
    status: row.status,
    outcome: row.outcome,
    mode: row.mode,
    source: row.source,
    attributes: row.attributes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function actorColumn(actor: Actor): string {
  return actor.kind === 'api_token' ? `api_token:${actor.tokenId}` : actor.kind;
}

/** The timeline row of a domain event: its type and the JSON of its data. */
export function eventColumns(event: CaseEvent): { type: string; actor: string; data: string } {
  switch (event.type) {
    case 'created':
      return { type: event.type, actor: actorColumn(event.actor), data: JSON.stringify({ source: event.source, mode: event.mode, status: event.status }) };
    case 'status_changed': {
      const { from, to, outcome, reason } = event;
      return { type: event.type, actor: actorColumn(event.actor), data: JSON.stringify({ from, to, outcome, ...(reason ? { reason } : {}) }) };
    }
    case 'attributes_changed':
      return { type: event.type, actor: actorColumn(event.actor), data: JSON.stringify({ keys: event.keys }) };
  }
}
