import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import pluginMetadata from '../../api-metadata.generated.js';
import { components } from './openapi.components.js';
import { StepTypeRegistry } from '../extensions/step-type.registry.js';
import { stepSchemas } from './openapi.workflow-schemas.js';
import { withSharedComponents } from './openapi.shared-components.js';
import { toOpenApi31 } from './openapi31.js';
import { outboundWebhooks } from './openapi.subscriptions.js';

const DESCRIPTION = `Cases API and incoming webhook (for API consumers and webhook senders), admin API (for an organization's admins and the dashboard) and operator API (for the people running the service).

Conventions: JSON bodies of at most 1 MB (1,048,576 bytes) nested at most 64 levels; resources wrapped in an object with one key (\`{"case": {...}}\`); integer ids; ISO 8601 UTC timestamps. Request bodies must be sent as \`application/json\` (415 otherwise), except on the incoming webhook. Errors are \`{"error": "<message>"}\`, plus \`validation_errors\` (JSON Pointer paths) on validation failures; 401 for any credential problem; 404 for anything outside the caller's organization; 503 when Postgres is unavailable (retry shortly). Every GET also answers HEAD.`;

const TAGS: [string, string][] = [
  ['Cases', 'Create, read and move cases on direct workflows (API token).'],
  ['Incoming webhook', 'Create a case from any JSON object (webhook token in the URL).'],
  ['Tokens', 'API and admin tokens of the organization (admin token).'],
  ['Workflows', 'Workflow definitions, publication and webhook URLs (admin token).'],
  ['Admin cases', 'The organization\'s cases, their timelines, and usage (admin token).'],
  ['Event subscriptions', 'Outbound webhooks: case lifecycle events sent to subscribers, and their delivery log (admin token).'],
  ['Secrets', 'Organization secrets for `{{ secrets.NAME }}` in http_request steps; values are never shown (admin token).'],
  ['Service levels', 'Business-hours calendars and the SLA policies of workflows, counted in them (admin token).'],
  ['Retention', 'How long finished runs, ended deliveries and closed cases are kept, per organization (admin token).'],
  ['Audit', 'Every change made through the admin and operator API, read only (admin token).'],
  ['Reports', 'Figures of the organization\'s live cases over time, kept as cases move (admin token).'],
  ['People', 'The organization\'s users and their roles, and who is calling (owners manage users; everyone signed in may ask who they are).'],
  ['Sign-in', 'Signing in to the dashboard by email link, and signing out (no credential: the link or the session cookie is one).'],
  ['Operator', 'Organizations and webhook rotation, for the people running the service (operator token).'],
  ['Health', 'Probes and metrics for load balancers, orchestrators and scrapers (no credential; `/metrics` takes `METRICS_TOKEN` when it is set).'],
];

/**
 * The OpenAPI 3.1 description of every endpoint, with every error it answers: derived from the
 * controllers (their routes and @ApiEndpoint decorators) and request classes (the CLI plugin's
 * metadata, scripts/generate-api-metadata.ts), plus the shared components no class declares.
 */
export async function openApiDocument(app: INestApplication, publicBaseUrl: string): Promise<OpenAPIObject> {
  await SwaggerModule.loadPluginMetadata(pluginMetadata);
  const config = TAGS.reduce(
    (builder, [name, description]) => builder.addTag(name, description),
    new DocumentBuilder().setTitle('Case Intake Service').setVersion('1.0.0').setDescription(DESCRIPTION).addServer(publicBaseUrl),
  ).build();
  const derived = SwaggerModule.createDocument(app, config);
  const document = {
    ...derived,
    paths: withSharedComponents(derived.paths, components),
    webhooks: outboundWebhooks,
    components: { ...components, schemas: { ...closedRequestSchemas(derived.components?.schemas ?? {}), ...components.schemas, ...stepSchemas(app.get(StepTypeRegistry).all()) } },
  };
  return toOpenApi31(document);
}

/** The request classes' schemas: RequestValidationPipe refuses any key they do not declare. */
function closedRequestSchemas(schemas: object): Record<string, object> {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, { ...schema, additionalProperties: false }]));
}
