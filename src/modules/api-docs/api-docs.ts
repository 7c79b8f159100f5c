import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { setSecurityHeaders } from '../../shared/http/security-headers.js';
import { openApiDocument } from './openapi.document.js';

/** Swagger UI styles some elements inline; scripts stay same-origin files only. */
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Serves the OpenAPI document at /openapi.json and a browsable UI at /docs (assets bundled, no CDN). */
export async function serveApiDocs(app: NestFastifyApplication, publicBaseUrl: string): Promise<void> {
  app.getHttpAdapter().getInstance().addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/docs')) setSecurityHeaders(reply, DOCS_CSP);
    done();
  });
  SwaggerModule.setup('docs', app, await openApiDocument(app, publicBaseUrl), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Case Intake Service API',
  });
}
