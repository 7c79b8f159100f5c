import type { FastifyInstance } from 'fastify';
import type { RecentChanges } from '../database/recent-changes.js';
import { provenOrganization } from './authenticated-requests.js';

/** Methods that change nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a read replica: every request that may have changed an organization's data marks the
 * organization as changed lately (RecentChanges) before its answer is sent, so whatever its
 * caller asks next is read where the change is (ReplicaReads). Whatever the status: a request
 * answered 503 may still have committed.
 */
export function registerRecentChangeMarks(fastify: FastifyInstance, changes: RecentChanges): void {
  fastify.addHook('onSend', async (request, _reply, payload) => {
    if (READS.has(request.method)) return payload;
    const organizationId = provenOrganization(request);
    if (organizationId !== undefined) await changes.record(organizationId);
    return payload;
  });
}
