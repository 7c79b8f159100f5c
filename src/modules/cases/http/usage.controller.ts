import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { UsageRequest } from './usage.request.js';
import { UsageService } from '../application/usage.service.js';

/** ISO 8601 has forms (week dates, basic format) that pass the format check but that Date cannot read. */
function readDate(name: string, value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidRequestError(`"${name}" must be a date-time such as 2026-11-01T00:00:00Z`);
  return date;
}

@Controller('api/admin/v1/usage')
@RequiresRole('viewer')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiEndpoint({
    operationId: 'getUsage',
    summary: 'Get usage',
    description: ['Cases created and workflow runs started in `[from, to)`, per workflow and in total. Live figures are what is billed; test cases and their runs are reported apart and never billed. Any other query parameter is a 422.', 'Purged cases and runs still count (see getRetention): before their rows go, their counts are rolled up per UTC hour of creation, and an hour\'s rolled-up counts belong to the period when the hour starts in `[from, to)`. On whole hours (every billing period) the answer is therefore exact and never changes; a period that starts or ends mid-hour counts the purged rows of that hour entirely on the side where the hour starts.'],
    success: { status: 200, description: 'The usage of the period.', schema: wrapped('usage', schemaRef('Usage')) },
    errors: { 422: '`from` or `to` is not an ISO 8601 timestamp, `from` is not before `to`, or an unknown query parameter was given.' },
  })
  async report(@Principal() caller: Caller, @Query() query: UsageRequest) {
    const now = new Date();
    const from = query.from ? readDate('from', query.from) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const to = query.to ? readDate('to', query.to) : now;
    return { usage: await this.usage.report(caller.organizationId, from, to) };
  }
}
