import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { openApiDocument } from './openapi.document.js';

/** Serves the OpenAPI document at /openapi.json and a browsable UI at /docs (assets bundled, no CDN). */
export function serveApiDocs(app: NestFastifyApplication, publicBaseUrl: string): void {
  SwaggerModule.setup('docs', app, openApiDocument(publicBaseUrl), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Case Intake Service API',
  });
}
