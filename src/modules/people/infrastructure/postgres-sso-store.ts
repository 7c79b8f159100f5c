import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type SsoSetting, SsoStore } from '../application/sso-store.js';
import type { SsoConfiguration } from '../domain/sso.js';

interface SsoRow {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_ciphertext: string;
  email_domains: string[];
  verified_email_domains: string[];
  domain_verification_token: string;
  default_role: SsoConfiguration['defaultRole'];
  required: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'organization_id, issuer, client_id, client_secret_ciphertext, email_domains, verified_email_domains, domain_verification_token, default_role, required, created_at, updated_at';

const toConfiguration = (row: SsoRow): SsoConfiguration => ({
  organizationId: Number(row.organization_id),
  issuer: row.issuer,
  clientId: row.client_id,
  sealedClientSecret: row.client_secret_ciphertext,
  emailDomains: row.email_domains,
  verifiedEmailDomains: row.verified_email_domains,
  domainVerificationToken: row.domain_verification_token,
  defaultRole: row.default_role,
  required: row.required,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

@Injectable()
export class PostgresSsoStore extends SsoStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async find(organizationId: number, tx?: Transaction): Promise<SsoConfiguration | undefined> {
    const runner = tx ? entityManager(tx) : this.db;
    const rows = (await runner.query(`SELECT ${COLUMNS} FROM sso_configurations WHERE organization_id = $1${tx ? ' FOR UPDATE' : ''}`, [organizationId])) as SsoRow[];
    return rows[0] && toConfiguration(rows[0]);
  }

  async put(tx: Transaction, s: SsoSetting): Promise<SsoConfiguration> {
    const rows = (await entityManager(tx).query(
      `INSERT INTO sso_configurations (organization_id, issuer, client_id, client_secret_ciphertext, email_domains, default_role, required)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (organization_id) DO UPDATE SET issuer = $2, client_id = $3, client_secret_ciphertext = $4, email_domains = $5,
         default_role = $6, required = $7, updated_at = clock_timestamp(),
         verified_email_domains = ARRAY(SELECT unnest(sso_configurations.verified_email_domains) INTERSECT SELECT unnest($5::text[]) ORDER BY 1)
       RETURNING ${COLUMNS}`,
      [s.organizationId, s.issuer, s.clientId, s.sealedClientSecret, s.emailDomains, s.defaultRole, s.required],
    )) as SsoRow[];
    return toConfiguration(rows[0]!);
  }

  async delete(tx: Transaction, organizationId: number): Promise<boolean> {
    const [, count] = (await entityManager(tx).query('DELETE FROM sso_configurations WHERE organization_id = $1', [organizationId])) as [unknown, number];
    return count > 0;
  }

  async markVerified(tx: Transaction, organizationId: number, token: string, domains: string[]): Promise<SsoConfiguration | undefined> {
    const [rows] = (await entityManager(tx).query(
      `UPDATE sso_configurations SET verified_email_domains = ARRAY(SELECT unnest(verified_email_domains || $3::text[]) INTERSECT SELECT unnest(email_domains) ORDER BY 1)
       WHERE organization_id = $1 AND domain_verification_token = $2 RETURNING ${COLUMNS}`,
      [organizationId, token, domains],
    )) as [SsoRow[], number];
    return rows[0] && toConfiguration(rows[0]);
  }

  async markUnverified(tx: Transaction, organizationId: number, token: string, domains: string[]): Promise<SsoConfiguration | undefined> {
    const [rows] = (await entityManager(tx).query(
      `UPDATE sso_configurations SET verified_email_domains = ARRAY(SELECT unnest(verified_email_domains) EXCEPT SELECT unnest($3::text[]) ORDER BY 1)
       WHERE organization_id = $1 AND domain_verification_token = $2 RETURNING ${COLUMNS}`,
      [organizationId, token, domains],
    )) as [SsoRow[], number];
    return rows[0] && toConfiguration(rows[0]);
  }

  async withVerifiedDomains(afterOrganizationId: number, limit: number): Promise<SsoConfiguration[]> {
    const rows = (await this.db.query(
      `SELECT ${COLUMNS} FROM sso_configurations WHERE organization_id > $1 AND verified_email_domains <> '{}' ORDER BY organization_id LIMIT $2`,
      [afterOrganizationId, limit],
    )) as SsoRow[];
    return rows.map(toConfiguration);
  }

  async provingDomain(domain: string, limit: number): Promise<SsoConfiguration[]> {
    const rows = (await this.db.query(`SELECT ${COLUMNS} FROM sso_configurations WHERE verified_email_domains @> ARRAY[$1]::text[] ORDER BY organization_id LIMIT $2`, [domain, limit])) as SsoRow[];
    return rows.map(toConfiguration);
  }
}
