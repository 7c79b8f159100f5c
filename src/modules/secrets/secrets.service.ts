import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { Env } from '../../shared/config/env.js';
import { SecretBox } from '../../shared/crypto/secret-box.js';
import { type OrganizationCap, storeWithinCap } from '../../shared/database/organization-caps.js';
import { TransactionRunner } from '../../shared/database/transaction.js';
import { NotFoundError } from '../../shared/errors/app-error.js';
import { OrganizationSecretOrmEntity } from './organization-secret.orm-entity.js';
import { SecretCipher } from './secret-cipher.js';

const SECRETS_CAP: OrganizationCap = { what: 'secrets', table: 'organization_secrets', setting: 'MAX_SECRETS_PER_ORGANIZATION' };

export interface SecretView {
  name: string;
  created_at: string;
  updated_at: string;
}

@Injectable()
export class SecretsService {
  private readonly cipher: SecretCipher;

  constructor(
    @InjectRepository(OrganizationSecretOrmEntity) private readonly secrets: Repository<OrganizationSecretOrmEntity>,
    box: SecretBox,
    private readonly transactions: TransactionRunner,
    private readonly env: Env,
  ) {
    this.cipher = new SecretCipher(box);
  }

  /** Creates or replaces a secret (a replacement passes at the cap); `created_at` stays that of its first version. */
  async put(organizationId: number, name: string, value: string): Promise<SecretView> {
    const rows: { created_at: Date; updated_at: Date }[] = await storeWithinCap(this.transactions, this.env, organizationId, SECRETS_CAP, (m) => m.query(
      `INSERT INTO organization_secrets (organization_id, name, value_ciphertext) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, name) DO UPDATE SET value_ciphertext = EXCLUDED.value_ciphertext, updated_at = now()
       RETURNING created_at, updated_at`,
      [organizationId, name, this.cipher.seal(organizationId, name, value)],
    ));
    return toView({ name, createdAt: rows[0]!.created_at, updatedAt: rows[0]!.updated_at });
  }

  async list(organizationId: number): Promise<SecretView[]> {
    const rows = await this.secrets.find({ where: { organizationId }, order: { name: 'ASC' } });
    return rows.map(toView);
  }

  async delete(organizationId: number, name: string): Promise<void> {
    const result = await this.secrets.delete({ organizationId, name });
    if (!result.affected) throw new NotFoundError('secret');
  }

  /** The values of the named secrets, in one query; `missing` names those that do not exist. */
  async resolve(organizationId: number, names: readonly string[]): Promise<{ found: Record<string, string>; missing: string[] }> {
    if (names.length === 0) return { found: {}, missing: [] };
    const rows = await this.secrets.find({ where: { organizationId, name: In([...names]) }, select: { name: true, valueCiphertext: true } });
    const found: Record<string, string> = Object.create(null);
    for (const row of rows) found[row.name] = this.cipher.open(organizationId, row.name, row.valueCiphertext);
    return { found, missing: names.filter((name) => !(name in found)) };
  }
}

function toView(row: Pick<OrganizationSecretOrmEntity, 'name' | 'createdAt' | 'updatedAt'>): SecretView {
  return { name: row.name, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}
