import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { NotificationPreferences } from '../domain/notification.js';
import { NotificationStore } from './comment-ports.js';
import { UnsubscribeLinks } from './unsubscribe-links.js';

/** A person's notification switches, set by them or turned off by a mail's unsubscribe link; audited either way. */
@Injectable()
export class NotificationPreferencesService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly store: NotificationStore,
    private readonly links: UnsubscribeLinks,
    private readonly audit: AuditTrail,
  ) {}

  get(organizationId: number, userId: number): Promise<NotificationPreferences> {
    return this.store.preferences(organizationId, userId);
  }

  async set(organizationId: number, userId: number, preferences: NotificationPreferences, by: ChangeAuthor): Promise<NotificationPreferences> {
    await this.transactions.run(async (tx) => {
      await this.store.setPreferences(tx, organizationId, userId, preferences);
      await this.audit.record(tx, { organizationId, by, action: 'notifications.updated', target: { type: 'user', id: String(userId) }, summary: { ...preferences } });
    });
    return preferences;
  }

  /** What an unsubscribe link turns off: null for a link the service did not make. */
  async unsubscribe(token: string, address: string | null): Promise<string | null> {
    const target = this.links.read(token);
    if (!target) return null;
    await this.transactions.run(async (tx) => {
      await this.store.turnOff(tx, target.organizationId, target.userId, target.preference);
      const by: ChangeAuthor = { actor: { type: 'user', id: String(target.userId), name: 'unsubscribe link' }, address };
      await this.audit.record(tx, { organizationId: target.organizationId, by, action: 'notifications.unsubscribed', target: { type: 'user', id: String(target.userId) }, summary: { [target.preference]: false } });
    });
    return target.preference;
  }

  /** Whether a link is one the service made (the page shows before anything changes). */
  valid(token: string): string | null {
    return this.links.read(token)?.preference ?? null;
  }
}
