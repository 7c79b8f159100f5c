import type { OpenAPIObject } from '@nestjs/swagger';
import { adminRoutes } from './openapi.admin-paths.js';
import { components } from './openapi.components.js';
import { toPaths } from './openapi.operations.js';
import { publicRoutes } from './openapi.public-paths.js';
import { secretRoutes } from './openapi.secrets.js';
import { outboundWebhooks, subscriptionRoutes } from './openapi.subscriptions.js';

const DESCRIPTION = `Cases API and incoming webhook (for API consumers and webhook senders), admin API (for an organization's admins and the dashboard) and operator API (for the people running the service).

Conventions: JSON bodies of at most 1 MB (1,048,576 bytes) nested at most 64 levels; resources wrapped in an object with one key (\`{"case": {...}}\`); integer ids; ISO 8601 UTC timestamps. Request bodies must be sent as \`application/json\` (415 otherwise), except on the incoming webhook. Errors are \`{"error": "<message>"}\`, plus \`validation_errors\` (JSON Pointer paths) on validation failures; 401 for any credential problem; 404 for anything outside the caller's organization; 503 when Postgres is unavailable (retry shortly). Every GET also answers HEAD.`;

const TAGS: { name: string; description: string }[] = [
  { name: 'Cases', description: 'Create, read and move cases on direct workflows (API token).' },
  { name: 'Incoming webhook', description: 'Create a case from any JSON object (webhook token in the URL).' },
  { name: 'Tokens', description: 'API and admin tokens of the organization (admin token).' },
  { name: 'Workflows', description: 'Workflow definitions, publication and webhook URLs (admin token).' },
  { name: 'Admin cases', description: 'The organization\'s cases, their timelines, and usage (admin token).' },
  { name: 'Event subscriptions', description: 'Outbound webhooks: case lifecycle events sent to subscribers, and their delivery log (admin token).' },
  { name: 'Secrets', description: 'Organization secrets for `{{ secrets.NAME }}` in http_request steps; values are never shown (admin token).' },
  { name: 'Operator', description: 'Organizations and webhook rotation, for the people running the service (operator token).' },
  { name: 'Health', description: 'Probes and metrics for load balancers, orchestrators and scrapers (no credential; `/metrics` takes `METRICS_TOKEN` when it is set).' },
];

/** The OpenAPI 3.1 description of every endpoint, with every error it answers. */
export function openApiDocument(publicBaseUrl: string): OpenAPIObject {
  const document = {
    openapi: '3.1.0',
    info: { title: 'Case Intake Service', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: publicBaseUrl }],
    tags: TAGS,
    paths: toPaths([...publicRoutes, ...adminRoutes, ...subscriptionRoutes, ...secretRoutes]),
    webhooks: outboundWebhooks,
    components,
  };
  // JSON Schema 2020-12 keywords (const, type arrays) are outside @nestjs/swagger's 3.0-era types.
  return document as unknown as OpenAPIObject;
}
