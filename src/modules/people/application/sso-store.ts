import type { Transaction } from '../../../shared/database/transaction.js';
import type { SsoConfiguration } from '../domain/sso.js';

/** What a put stores; the store keeps the verified domains still listed, and gives a new setting its verification token. */
export type SsoSetting = Omit<SsoConfiguration, 'createdAt' | 'updatedAt' | 'verifiedEmailDomains' | 'domainVerificationToken'>;

/** Where organizations' single sign-on settings are kept; bound to the module's infrastructure. */
export abstract class SsoStore {
  abstract find(organizationId: number, tx?: Transaction): Promise<SsoConfiguration | undefined>;
  /** Inserts or replaces the organization's setting; answers it as stored. */
  abstract put(tx: Transaction, setting: SsoSetting): Promise<SsoConfiguration>;
  /** Whether there was one to delete. */
  abstract delete(tx: Transaction, organizationId: number): Promise<boolean>;
  /**
   * Adds these to the verified domains of the setting whose TXT records say `token` (the domains
   * it still lists); answers it as stored, or undefined when the setting was removed or made anew.
   */
  abstract markVerified(tx: Transaction, organizationId: number, token: string, domains: string[]): Promise<SsoConfiguration | undefined>;
  /** Removes these from the verified domains of the setting whose TXT records say `token`; answers it as stored, or undefined when it was removed or made anew. */
  abstract markUnverified(tx: Transaction, organizationId: number, token: string, domains: string[]): Promise<SsoConfiguration | undefined>;
  /** The settings with a proven domain, by organization id after `afterOrganizationId` (at most `limit`). */
  abstract withVerifiedDomains(afterOrganizationId: number, limit: number): Promise<SsoConfiguration[]>;
  /** The settings whose organization proved this email domain, by organization id (at most `limit`). */
  abstract provingDomain(domain: string, limit: number): Promise<SsoConfiguration[]>;
}
