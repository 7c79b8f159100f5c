import { Controller, Get, Query } from '@nestjs/common';
import { InvalidRequestError } from '../../shared/errors/app-error.js';
import { RequiresToken } from '../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../tokens/principal.js';
import { Principal } from '../tokens/principal.decorator.js';
import { UsageRequest } from './usage.request.js';
import { UsageService } from './usage.service.js';

/** ISO 8601 has forms (week dates, basic format) that pass the format check but that Date cannot read. */
function readDate(name: string, value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidRequestError(`"${name}" must be a date-time such as 2026-11-01T00:00:00Z`);
  return date;
}

@Controller('api/admin/v1/usage')
@RequiresToken('admin')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  async report(@Principal() caller: Caller, @Query() query: UsageRequest) {
    const now = new Date();
    const from = query.from ? readDate('from', query.from) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const to = query.to ? readDate('to', query.to) : now;
    return { usage: await this.usage.report(caller.organizationId, from, to) };
  }
}
