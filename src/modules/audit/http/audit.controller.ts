import { Controller, Get, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InvalidQueryError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { proofParameter } from '../../../shared/http/authenticated-requests.js';
import { object, schemaRef } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { AuditEntriesService, parseAuditCursor } from '../application/audit-entries.service.js';
import type { AuditFilters } from '../domain/audit-entry.js';
import { ListAuditRequest } from './list-audit.request.js';

/**
 * The admin caller (token or signed-in person), as far as this module needs it. Declared with the
 * shared credential helpers rather than the tokens module's, since every module that records
 * changes (tokens too) depends on this one.
 */
const Caller = proofParameter<{ organizationId: number }>('admin');

/** The organization's audit log: read only, through any API; for owners and admins. */
@Controller('api/admin/v1/audit')
@RequiresRole('admin')
@ApiTags('Audit')
@ApiSecurity('adminToken')
export class AuditController {
  constructor(private readonly entries: AuditEntriesService) {}

  @Get()
  @ApiEndpoint({
    operationId: 'listAuditEntries',
    summary: 'List audit entries',
    description: `Every change made through the admin and operator API, one entry each, written in the transaction of the change. Without \`after\`, the newest entries, newest first; with the \`next_cursor\` of an answer, the entries recorded since, oldest first (\`next_cursor\` is then the newest entry read, or \`after\` itself when there is none). An entry is listed once every change that began before it has ended (at once, unless one is slow), so a cursor never passes an entry that commits late. Entries are never changed or deleted but by retention (\`audit_days\`, at least 90), except that a failed sign-in (\`session.sign_in_failed\`) repeated within an hour of its entry adds one to that entry's \`summary.count\` instead of a new entry. \`summary\` says what changed and never holds a secret value, a token or a webhook URL. ${BODY_IGNORED}`,
    success: {
      status: 200,
      description: 'A page of entries.',
      schema: object({ entries: { type: 'array', items: schemaRef('AuditEntry') }, next_cursor: { type: 'string', description: 'Pass as `after` to read what is recorded from then on.' } }),
    },
    errors: { 422: 'An unknown parameter; `after` not a `next_cursor` of this list; `limit` not an integer from 1 to 200; `actor` not `type:id`; `action` not an action name; `target` not `type` or `type:id`.' },
  })
  list(@Caller() caller: { organizationId: number }, @Query() query: ListAuditRequest) {
    const after = query.after === undefined ? undefined : parseAuditCursor(query.after);
    if (query.after !== undefined && after === undefined) throw new InvalidQueryError([{ path: '/after', error: 'after must be a next_cursor of this list' }]);
    return this.entries.list(caller.organizationId, after, filters(query), query.limit ? Number(query.limit) : 50);
  }
}

function filters(query: ListAuditRequest): AuditFilters {
  const split = (value: string) => {
    const at = value.indexOf(':');
    return at < 0 ? { type: value } : { type: value.slice(0, at), id: value.slice(at + 1) };
  };
  return {
    ...(query.actor ? { actor: split(query.actor) as { type: string; id: string } } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.target ? { target: split(query.target) } : {}),
  };
}
