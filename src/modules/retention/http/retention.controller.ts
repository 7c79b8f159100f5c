import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { schemaRef } from '../../../shared/http/openapi-schema.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import type { OrganizationRetention } from '../domain/retention.js';
import { RetentionSettingsService } from '../application/retention-settings.service.js';
import { PutRetentionRequest } from './put-retention.request.js';

const ANSWER = { status: 200 as const, description: 'The retention in force for the organization, its overrides and the deployment\'s defaults.', schema: schemaRef('Retention') };

/** How long the organization's runs, deliveries, closed cases and audit entries are kept. */
@Controller('api/admin/v1/retention')
// people.md gives changing retention to owners alone (it decides when data is deleted).
@RequiresRole('owner')
@ApiTags('Retention')
@ApiSecurity('adminToken')
export class RetentionController {
  constructor(private readonly retention: RetentionSettingsService) {}

  @Get()
  @RequiresRole('editor')
  @ApiEndpoint({
    operationId: 'getRetention',
    summary: 'Get retention',
    description: `How long the organization's finished runs, ended deliveries, closed cases and audit entries are kept: \`retention\` is what is in force, \`overrides\` what the organization set (null follows the default), \`defaults\` the deployment's \`RETENTION_*_DAYS\` (365 for audit entries). Usage answers never change when rows are purged (see getUsage). ${BODY_IGNORED}`,
    success: ANSWER,
  })
  async get(@Principal() caller: Caller) {
    return answer(await this.retention.get(caller.organizationId));
  }

  @Put()
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'putRetention',
    summary: 'Replace retention overrides',
    description: 'Replaces all the overrides at once: a key left out or null follows the deployment\'s default. Acts from the next purge pass on (the worker role purges every `RETENTION_PURGE_INTERVAL_MS`); rows already purged do not come back.',
    success: ANSWER,
    errors: { 422: 'A key other than `runs_days`, `deliveries_days`, `closed_cases_days` and `audit_days`; a value that is not an integer or null; `runs_days` or `deliveries_days` outside 1..36500, `closed_cases_days` outside 0..36500, `audit_days` outside 90..36500; a body that is not a valid JSON object.' },
  })
  async put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: PutRetentionRequest) {
    const overrides = { runsDays: body.runs_days ?? null, deliveriesDays: body.deliveries_days ?? null, closedCasesDays: body.closed_cases_days ?? null, auditDays: body.audit_days ?? null };
    return answer(await this.retention.replace(by, caller.organizationId, overrides));
  }
}

function answer({ inForce, overrides, defaults }: OrganizationRetention) {
  const days = (d: { runsDays: number | null; deliveriesDays: number | null; closedCasesDays: number | null; auditDays: number | null }) => ({
    runs_days: d.runsDays,
    deliveries_days: d.deliveriesDays,
    closed_cases_days: d.closedCasesDays,
    audit_days: d.auditDays,
  });
  return { retention: days(inForce), overrides: days(overrides), defaults: days(defaults) };
}
