import type { Transaction } from '../../../shared/database/transaction.js';
import type { OrganizationSecret } from '../domain/organization-secret.js';

/** Where organization secrets are kept, sealed; bound to the module's infrastructure. */
export abstract class SecretStore {
  /** Creates or replaces a secret, refused past the organization's cap unless it replaces one. */
  abstract put(tx: Transaction, organizationId: number, name: string, valueCiphertext: string): Promise<OrganizationSecret & { created: boolean }>;
  /** The organization's secrets, by name. */
  abstract list(organizationId: number): Promise<OrganizationSecret[]>;
  /** Whether there was one to delete. */
  abstract delete(tx: Transaction, organizationId: number, name: string): Promise<boolean>;
  /** The sealed values of those of the named secrets that exist, in one query. */
  abstract sealedValues(organizationId: number, names: readonly string[]): Promise<{ name: string; valueCiphertext: string }[]>;
}
