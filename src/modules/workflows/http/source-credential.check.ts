import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../../shared/errors/app-error.js';
import type { CredentialCheck } from '../../../shared/http/route-credentials.js';
import { CaseSourceRegistry } from '../application/case-source-registry.js';

/**
 * The credential of a route an extension's case source declared (`@RequiresSourceCredential`):
 * the source's own `authenticate` runs in the credential hook, before the body is read, like
 * every other credential; what it answers is the handler's `@SourceCredentialProof()`.
 */
@Injectable()
export class SourceCredentialCheck implements CredentialCheck<{ kind: 'source'; sourceType: string }, unknown> {
  constructor(private readonly sources: CaseSourceRegistry) {}

  async authenticate(request: FastifyRequest, credential: { sourceType: string }): Promise<unknown> {
    const source = this.sources.get(credential.sourceType);
    const proof = source?.authenticate ? await source.authenticate({ params: request.params as Record<string, string>, headers: request.headers, query: request.query as Record<string, unknown> }) : undefined;
    if (proof === undefined) throw new UnauthorizedError();
    return proof;
  }
}
