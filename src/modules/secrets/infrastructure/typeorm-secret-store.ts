import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { CAP_COUNT, capCountSql, type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { SecretStore } from '../application/secret-store.js';
import type { OrganizationSecret } from '../domain/organization-secret.js';
import { OrganizationSecretOrmEntity } from './organization-secret.orm-entity.js';

const PUT_SECRET = statement(
  `INSERT INTO organization_secrets (organization_id, name, value_ciphertext) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, name) DO UPDATE SET value_ciphertext = EXCLUDED.value_ciphertext, updated_at = now()
       RETURNING created_at, updated_at, xmax = 0 AS created`,
  { created_at: column.timestamptz, updated_at: column.timestamptz, created: column.bool },
);

const SECRETS_CAP: OrganizationCap = { what: 'secrets', count: statement(capCountSql('organization_secrets'), CAP_COUNT), setting: 'MAX_SECRETS_PER_ORGANIZATION' };

@Injectable()
export class TypeOrmSecretStore extends SecretStore {
  constructor(
    @InjectRepository(OrganizationSecretOrmEntity) private readonly secrets: Repository<OrganizationSecretOrmEntity>,
    private readonly env: Env,
  ) {
    super();
  }

  async put(tx: Transaction, organizationId: number, name: string, valueCiphertext: string): Promise<OrganizationSecret & { created: boolean }> {
    const row = await storeWithinCap(tx, this.env, organizationId, SECRETS_CAP, (m) => firstRowOf(m, PUT_SECRET, [organizationId, name, valueCiphertext]));
    return { name, createdAt: row!.created_at, updatedAt: row!.updated_at, created: row!.created };
  }

  list(organizationId: number): Promise<OrganizationSecret[]> {
    return this.secrets.find({ where: { organizationId }, order: { name: 'ASC' } });
  }

  async delete(tx: Transaction, organizationId: number, name: string): Promise<boolean> {
    return Boolean((await entityManager(tx).delete(OrganizationSecretOrmEntity, { organizationId, name })).affected);
  }

  sealedValues(organizationId: number, names: readonly string[]): Promise<{ name: string; valueCiphertext: string }[]> {
    return this.secrets.find({ where: { organizationId, name: In([...names]) }, select: { name: true, valueCiphertext: true } });
  }
}
