import { Controller, Get, Query } from '@nestjs/common';
import { RequiresToken } from '../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../tokens/principal.js';
import { Principal } from '../tokens/principal.decorator.js';
import { UsageRequest } from './usage.request.js';
import { UsageService } from './usage.service.js';

@Controller('api/admin/v1/usage')
@RequiresToken('admin')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  async report(@Principal() caller: Caller, @Query() query: UsageRequest) {
    const now = new Date();
    const from = query.from ? new Date(query.from) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const to = query.to ? new Date(query.to) : now;
    return { usage: await this.usage.report(caller.organizationId, from, to) };
  }
}
