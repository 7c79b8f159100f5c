import { randomBytes } from 'node:crypto';
import { exampleDefinition } from '../../src/modules/workflows/domain/example-definition.js';
import type { TestApp } from './test-app.js';

export const operatorToken = () => process.env.OPERATOR_TOKEN!;

/**
 * The contract's example definition (required and typed attributes, custom statuses) with only
 * its Triage automation: no outbound call on every case the tests create.
 */
export function sampleDefinition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...exampleDefinition(), automations: { Triage: exampleDefinition().automations.Triage }, ...overrides };
}

export interface Organization {
  id: number;
  adminToken: string;
}

export async function createOrganization(t: TestApp, name = `Org ${randomBytes(3).toString('hex')}`): Promise<Organization> {
  const res = await t.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name } });
  if (res.status !== 201) throw new Error(`organization: ${res.status} ${res.text}`);
  return { id: res.body.organization.id, adminToken: res.body.admin_token };
}

export async function createToken(t: TestApp, org: Organization, scope: 'api' | 'admin' = 'api'): Promise<{ id: number; secret: string }> {
  const res = await t.request('POST', '/api/admin/v1/tokens', { token: org.adminToken, body: { name: `${scope} token`, scope } });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
  return { id: res.body.token.id, secret: res.body.secret };
}

export async function createWorkflow(t: TestApp, org: Organization, definition = sampleDefinition(), publish = true): Promise<number> {
  const res = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: definition });
  if (res.status !== 201) throw new Error(`workflow: ${res.status} ${res.text}`);
  const id: number = res.body.workflow.id;
  if (publish) {
    const published = await t.request('POST', `/api/admin/v1/workflows/${id}/publish`, { token: org.adminToken });
    if (published.status !== 200) throw new Error(`publish: ${published.status} ${published.text}`);
  }
  return id;
}

export async function generateWebhook(t: TestApp, org: Organization, workflowId: number): Promise<{ url: string; path: string; token: string }> {
  const res = await t.request('POST', `/api/admin/v1/workflows/${workflowId}/webhook`, { token: org.adminToken });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${res.text}`);
  const url = new URL(res.body.webhook.url);
  return { url: res.body.webhook.url, path: url.pathname + url.search, token: res.body.webhook.token };
}

export interface DirectWorkflow {
  org: Organization;
  apiToken: string;
  workflowId: number;
  casesPath: string;
}

/** An organization with an API token and a published direct workflow. */
export async function givenDirectWorkflow(t: TestApp, definition = sampleDefinition()): Promise<DirectWorkflow> {
  const org = await createOrganization(t);
  const { secret } = await createToken(t, org, 'api');
  const workflowId = await createWorkflow(t, org, definition);
  return { org, apiToken: secret, workflowId, casesPath: `/api/external/v1/workflows/${workflowId}/cases` };
}
