import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { OrganizationSecret } from '../domain/organization-secret.js';
import { SecretCipher } from './secret-cipher.js';
import { SecretStore } from './secret-store.js';

export interface SecretView {
  name: string;
  created_at: string;
  updated_at: string;
}

@Injectable()
export class SecretsService {
  private readonly cipher: SecretCipher;

  constructor(
    private readonly secrets: SecretStore,
    box: SecretBox,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {
    this.cipher = new SecretCipher(box);
  }

  /** Creates or replaces a secret (a replacement passes at the cap); `created_at` stays that of its first version. */
  async put(by: ChangeAuthor, organizationId: number, name: string, value: string): Promise<SecretView> {
    const sealed = this.cipher.seal(organizationId, name, value);
    return toView(await this.transactions.run(async (tx) => {
      const stored = await this.secrets.put(tx, organizationId, name, sealed);
      await this.audit.record(tx, { organizationId, by, action: stored.created ? 'secret.created' : 'secret.replaced', target: { type: 'secret', id: name } });
      return stored;
    }));
  }

  async list(organizationId: number): Promise<SecretView[]> {
    return (await this.secrets.list(organizationId)).map(toView);
  }

  async delete(by: ChangeAuthor, organizationId: number, name: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      if (!(await this.secrets.delete(tx, organizationId, name))) throw new NotFoundError('secret');
      await this.audit.record(tx, { organizationId, by, action: 'secret.deleted', target: { type: 'secret', id: name } });
    });
  }

  /** The values of the named secrets, in one query; `missing` names those that do not exist. */
  async resolve(organizationId: number, names: readonly string[]): Promise<{ found: Record<string, string>; missing: string[] }> {
    if (names.length === 0) return { found: {}, missing: [] };
    const rows = await this.secrets.sealedValues(organizationId, names);
    const found: Record<string, string> = Object.create(null);
    for (const row of rows) found[row.name] = this.cipher.open(organizationId, row.name, row.valueCiphertext);
    return { found, missing: names.filter((name) => !(name in found)) };
  }
}

function toView(secret: OrganizationSecret): SecretView {
  return { name: secret.name, created_at: secret.createdAt.toISOString(), updated_at: secret.updatedAt.toISOString() };
}
