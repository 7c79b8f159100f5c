import type { Transaction } from '../../../shared/database/transaction.js';
import type { SsoConfiguration } from '../domain/sso.js';

export type SsoSetting = Omit<SsoConfiguration, 'createdAt' | 'updatedAt'>;

/** Where organizations' single sign-on settings are kept; bound to the module's infrastructure. */
export abstract class SsoStore {
  abstract find(organizationId: number, tx?: Transaction): Promise<SsoConfiguration | undefined>;
  /** Inserts or replaces the organization's setting; answers it as stored. */
  abstract put(tx: Transaction, setting: SsoSetting): Promise<SsoConfiguration>;
  /** Whether there was one to delete. */
  abstract delete(tx: Transaction, organizationId: number): Promise<boolean>;
  /** The settings that list this email domain, by organization id (at most `limit`). */
  abstract listingDomain(domain: string, limit: number): Promise<SsoConfiguration[]>;
}
