import { Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AuditEntryPurges } from '../../audit/application/audit-entry-purges.js';
import { PeoplePurges } from '../../people/application/people-purges.js';
import { OrganizationsService } from '../../organizations/application/organizations.service.js';
import type { RetentionDays } from '../domain/retention.js';
import {
  CasePurges,
  DeliveryPurges,
  DigestSendPurges,
  type ExpiringKind,
  type OrganizationDays,
  type PurgeBatch,
  type PurgedKind,
  type PurgeOwner,
  RetentionOverridesStore,
  RetentionPurges,
  SlaTimerPurges,
} from './retention.ports.js';

/** A batch of an owner whose port only deletes and counts: another batch follows while a full one was deleted. */
const untilShort = (kind: PurgedKind, purged: number, limit: number): PurgeBatch<number> => ({ purged: { [kind]: purged }, next: purged === limit ? 0 : null });

/**
 * The purge's statements, each sent to the module that owns the rows (its port, bound in that
 * module); retention adds what it owns itself: every organization's days, its override or the
 * default. An owner is looked up when first asked, so a module missing its port fails the pass
 * with a message naming the port.
 */
@Injectable()
export class OwnedRetentionPurges extends RetentionPurges {
  constructor(
    private readonly modules: ModuleRef,
    private readonly overrides: RetentionOverridesStore,
    private readonly organizations: OrganizationsService,
  ) {
    super();
  }

  /** One `now` for every owner, so each creates the same months. */
  async createPartitionsAhead(): Promise<number> {
    const now = new Date();
    let created = 0;
    for (const owner of [this.owner(CasePurges), this.owner(DeliveryPurges), this.owner(AuditEntryPurges)]) created += await owner.createPartitionsAhead(now);
    return created;
  }

  async dropRunPartitions(defaultDays: number): Promise<number> {
    return this.owner(CasePurges).dropRunPartitions(await this.organizationDays('runsDays', defaultDays));
  }

  async dropAuditPartitions(defaultDays: number): Promise<number> {
    return this.owner(AuditEntryPurges).dropPartitions(await this.organizationDays('auditDays', defaultDays));
  }

  async dropEmptiedPartitions(): Promise<void> {
    await this.owner(CasePurges).dropEmptiedTimelinePartitions();
    await this.owner(DeliveryPurges).dropEmptiedPartitions();
  }

  async organizationsWithOldRuns(defaultDays: number): Promise<PurgeOwner<Date>[]> {
    return this.owner(CasePurges).organizationsWithOldRuns(await this.organizationDays('runsDays', defaultDays));
  }

  purgeRuns(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>> {
    return this.owner(CasePurges).purgeRuns(organization, from, limit);
  }

  async organizationsWithOldClosedCases(defaultDays: number): Promise<PurgeOwner<Date>[]> {
    return this.owner(CasePurges).organizationsWithOldClosedCases(await this.organizationDays('closedCasesDays', defaultDays));
  }

  purgeClosedCases(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>> {
    return this.owner(CasePurges).purgeClosedCases(organization, from, limit);
  }

  async subscriptionsWithOldDeliveries(defaultDays: number): Promise<PurgeOwner<number>[]> {
    return this.owner(DeliveryPurges).subscriptionsWithOldDeliveries(await this.organizationDays('deliveriesDays', defaultDays));
  }

  purgeDeliveries(subscription: PurgeOwner<number>, afterId: number, limit: number): Promise<PurgeBatch<number>> {
    return this.owner(DeliveryPurges).purgeDeliveries(subscription, afterId, limit);
  }

  purgeExpiredKeys(kind: ExpiringKind, afterCaseId: number, limit: number): Promise<PurgeBatch<number>> {
    return this.owner(CasePurges).purgeExpiredKeys(kind, afterCaseId, limit);
  }

  purgeDigestSends(limit: number): Promise<PurgeBatch<number>> {
    return this.owner(DigestSendPurges).purgeDigestSends(limit);
  }

  async purgeAuditEntries(defaultDays: number, limit: number): Promise<PurgeBatch<number>> {
    return untilShort('audit_entries', await this.owner(AuditEntryPurges).purgeOlderThan(await this.organizationDays('auditDays', defaultDays), limit), limit);
  }

  async purgeEndedSessions(limit: number): Promise<PurgeBatch<number>> {
    return untilShort('sessions', await this.owner(PeoplePurges).purgeEndedSessions(limit), limit);
  }

  async purgeSpentSignInLinks(limit: number): Promise<PurgeBatch<number>> {
    return untilShort('sign_in_links', await this.owner(PeoplePurges).purgeSpentSignInLinks(limit), limit);
  }

  async purgeFiredSlaTimers(limit: number): Promise<PurgeBatch<number>> {
    return untilShort('sla_timers', await this.owner(SlaTimerPurges).purgeFiredTimers(limit), limit);
  }

  private owner<T>(port: abstract new () => T): T {
    return this.modules.get(port as unknown as Type<T>, { strict: false });
  }

  /** The organizations with something to purge for `setting`, and their days: 0 (closed cases only) keeps them forever. */
  private async organizationDays(setting: keyof RetentionDays, defaultDays: number): Promise<OrganizationDays> {
    const [ids, overrides] = await Promise.all([this.organizations.ids(), this.overrides.all()]);
    const purging = ids.map((id) => ({ id, days: overrides.get(id)?.[setting] ?? defaultDays })).filter((o) => o.days > 0);
    return { ids: purging.map((o) => o.id), days: purging.map((o) => o.days) };
  }
}
