import assert from 'node:assert/strict';
import { createOrganization, createWorkflow, type Organization } from './scenario.js';
import type { InjectResult, TestApp } from './test-app.js';

/** A ticketing workflow with one attribute of every kind the form draws, and a name that needs escaping. */
export function formDefinition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'IT <help> & "requests"',
    case_source: 'ticketing',
    sensitive_data: false,
    attributes: {
      requester_email: { type: 'string', required: true, format: 'email' },
      site: { type: 'string', format: 'uri' },
      due: { type: 'string', format: 'date' },
      seen_at: { type: 'string', format: 'date-time' },
      room: { type: 'string' },
      seats: { type: 'integer', required: true },
      budget: { type: 'number' },
      urgent: { type: 'boolean' },
      priority: { type: 'string', enum: ['low', 'high'], required: true },
      details: { type: 'object' },
      tags: { type: 'array' },
      extra: { type: 'any' },
      '<b>"odd"</b>': { type: 'string' },
    },
    automations: {},
    ...overrides,
  };
}

export interface FormWorkflow {
  org: Organization;
  workflowId: number;
  url: string;
  /** The form's path, `/forms/<secret>`. */
  path: string;
}

/** An organization with a published ticketing workflow whose form URL was generated. */
export async function givenFormWorkflow(t: TestApp, definition = formDefinition()): Promise<FormWorkflow> {
  const org = await createOrganization(t);
  const workflowId = await createWorkflow(t, org, definition);
  const res = await t.request('POST', `/api/admin/v1/workflows/${workflowId}/form`, { token: org.adminToken });
  assert.equal(res.status, 201, res.text);
  const url: string = res.body.form.url;
  return { org, workflowId, url, path: new URL(url).pathname };
}

/** The posted name of an attribute's field. */
export const attribute = (name: string) => `attribute:${name}`;

/** Posts a form as a browser does: urlencoded, UTF-8. */
export function postForm(t: TestApp, path: string, fields: Record<string, string> | string): Promise<InjectResult> {
  const rawBody = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
  return t.request('POST', path, { rawBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

/** What a person fills in for formDefinition(): every field valid. */
export function validFields(): Record<string, string> {
  return {
    subject: 'Projector in room 4',
    [attribute('description')]: 'It flickers.\r\nSince Monday.',
    [attribute('requester_email')]: 'ana@example.com',
    [attribute('site')]: 'https://example.com/rooms/4',
    [attribute('due')]: '2025-02-03',
    [attribute('seen_at')]: '2025-01-31T09:30',
    [attribute('room')]: '',
    [attribute('seats')]: '0012',
    [attribute('budget')]: '1234567890.123456789012',
    [attribute('urgent')]: 'true',
    [attribute('priority')]: '"high"',
    [attribute('details')]: '{"model": "X1", "lamp_hours": 18446744073709551617}',
    [attribute('tags')]: '["av", "room-4"]',
    [attribute('extra')]: '42',
    website: '',
  };
}
