import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { type OrganizationRetention, organizationRetention, type RetentionDays, type RetentionOverrides } from '../domain/retention.js';
import { RetentionOverridesStore } from './retention.ports.js';

/** An organization's retention as the admin API shows and changes it. */
@Injectable()
export class RetentionSettingsService {
  private readonly defaults: RetentionDays;

  constructor(private readonly store: RetentionOverridesStore, env: Env) {
    this.defaults = retentionDefaults(env);
  }

  async get(organizationId: number): Promise<OrganizationRetention> {
    return organizationRetention(this.defaults, await this.store.find(organizationId));
  }

  async replace(organizationId: number, overrides: RetentionOverrides): Promise<OrganizationRetention> {
    await this.store.replace(organizationId, overrides);
    return organizationRetention(this.defaults, overrides);
  }
}

export function retentionDefaults(env: Env): RetentionDays {
  return { runsDays: env.RETENTION_RUNS_DAYS, deliveriesDays: env.RETENTION_DELIVERIES_DAYS, closedCasesDays: env.RETENTION_CLOSED_CASES_DAYS };
}
