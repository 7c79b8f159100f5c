import type { Transaction } from '../../../shared/database/transaction.js';
import type { Organization } from '../domain/organization.js';

/** Where organizations are kept, bound to the module's infrastructure. */
export abstract class OrganizationStore {
  abstract create(tx: Transaction, name: string): Promise<Organization>;
  /** Every organization's id, in id order. */
  abstract ids(): Promise<number[]>;
  /** The names of the organizations with these ids, by id (unknown ids are absent). */
  abstract names(ids: readonly number[]): Promise<Map<number, string>>;
  /** Every organization, in id order. */
  abstract list(): Promise<Organization[]>;
}
