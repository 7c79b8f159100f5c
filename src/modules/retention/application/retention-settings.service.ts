import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedSettings } from '../../audit/domain/audit-summary.js';
import { AUDIT_DAYS_DEFAULT, type OrganizationRetention, organizationRetention, type RetentionDays, type RetentionOverrides } from '../domain/retention.js';
import { RetentionOverridesStore } from './retention.ports.js';

/** An organization's retention as the admin API shows and changes it. */
@Injectable()
export class RetentionSettingsService {
  private readonly defaults: RetentionDays;

  constructor(
    private readonly store: RetentionOverridesStore,
    env: Env,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {
    this.defaults = retentionDefaults(env);
  }

  async get(organizationId: number): Promise<OrganizationRetention> {
    return organizationRetention(this.defaults, await this.store.find(organizationId));
  }

  /** Recorded with each override that changed, from and to (null: the default). */
  async replace(by: ChangeAuthor, organizationId: number, overrides: RetentionOverrides): Promise<OrganizationRetention> {
    await this.transactions.run(async (tx) => {
      const before = await this.store.find(organizationId, tx);
      await this.store.replace(tx, organizationId, overrides);
      const changed = changedSettings(asSettings(before), asSettings(overrides));
      await this.audit.record(tx, { organizationId, by, action: 'retention.updated', target: { type: 'retention', id: String(organizationId) }, summary: { changed } });
    });
    return organizationRetention(this.defaults, overrides);
  }
}

/** The overrides as the API names them. */
function asSettings(o: RetentionOverrides): Record<string, number | null> {
  return { runs_days: o.runsDays, deliveries_days: o.deliveriesDays, closed_cases_days: o.closedCasesDays, audit_days: o.auditDays };
}

export function retentionDefaults(env: Env): RetentionDays {
  return { runsDays: env.RETENTION_RUNS_DAYS, deliveriesDays: env.RETENTION_DELIVERIES_DAYS, closedCasesDays: env.RETENTION_CLOSED_CASES_DAYS, auditDays: AUDIT_DAYS_DEFAULT };
}
