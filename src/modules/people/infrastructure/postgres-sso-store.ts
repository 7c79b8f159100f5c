import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type SsoSetting, SsoStore } from '../application/sso-store.js';
import type { SsoConfiguration } from '../domain/sso.js';

const COLUMNS = 'organization_id, issuer, client_id, client_secret_ciphertext, email_domains, verified_email_domains, domain_verification_token, default_role, required, created_at, updated_at';
const SSO_ROW = {
  organization_id: column.int8,
  issuer: column.text,
  client_id: column.text,
  client_secret_ciphertext: column.text,
  email_domains: column.textArray,
  verified_email_domains: column.textArray,
  domain_verification_token: column.text,
  default_role: column.textOf<SsoConfiguration['defaultRole']>(),
  required: column.bool,
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
};

const FIND_SSO = statement(`SELECT ${COLUMNS} FROM sso_configurations WHERE organization_id = $1`, SSO_ROW);
const LOCK_SSO = statement(`SELECT ${COLUMNS} FROM sso_configurations WHERE organization_id = $1 FOR UPDATE`, SSO_ROW);
const PUT_SSO = statement(
  `INSERT INTO sso_configurations (organization_id, issuer, client_id, client_secret_ciphertext, email_domains, default_role, required)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (organization_id) DO UPDATE SET issuer = $2, client_id = $3, client_secret_ciphertext = $4, email_domains = $5,
         default_role = $6, required = $7, updated_at = clock_timestamp(),
         verified_email_domains = ARRAY(SELECT unnest(sso_configurations.verified_email_domains) INTERSECT SELECT unnest($5::text[]) ORDER BY 1)
       RETURNING ${COLUMNS}`,
  SSO_ROW,
);
/** Answers the deleted row's key, so that whether one was deleted is the rows' length. */
const DELETE_SSO = statement('DELETE FROM sso_configurations WHERE organization_id = $1 RETURNING organization_id', { organization_id: column.int8 });
const MARK_VERIFIED = statement(
  `UPDATE sso_configurations SET verified_email_domains = ARRAY(SELECT unnest(verified_email_domains || $3::text[]) INTERSECT SELECT unnest(email_domains) ORDER BY 1)
       WHERE organization_id = $1 AND domain_verification_token = $2 RETURNING ${COLUMNS}`,
  SSO_ROW,
);
const MARK_UNVERIFIED = statement(
  `UPDATE sso_configurations SET verified_email_domains = ARRAY(SELECT unnest(verified_email_domains) EXCEPT SELECT unnest($3::text[]) ORDER BY 1)
       WHERE organization_id = $1 AND domain_verification_token = $2 RETURNING ${COLUMNS}`,
  SSO_ROW,
);
const WITH_VERIFIED_DOMAINS = statement(
  `SELECT ${COLUMNS} FROM sso_configurations WHERE organization_id > $1 AND verified_email_domains <> '{}' ORDER BY organization_id LIMIT $2`,
  SSO_ROW,
);
const PROVING_DOMAIN = statement(`SELECT ${COLUMNS} FROM sso_configurations WHERE verified_email_domains @> ARRAY[$1]::text[] ORDER BY organization_id LIMIT $2`, SSO_ROW);

const toConfiguration = (row: RowOf<typeof SSO_ROW>): SsoConfiguration => ({
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
    const row = await (tx ? firstRowOf(entityManager(tx), LOCK_SSO, [organizationId]) : firstRowOf(this.db, FIND_SSO, [organizationId]));
    return row && toConfiguration(row);
  }

  async put(tx: Transaction, s: SsoSetting): Promise<SsoConfiguration> {
    const row = await firstRowOf(entityManager(tx), PUT_SSO, [s.organizationId, s.issuer, s.clientId, s.sealedClientSecret, s.emailDomains, s.defaultRole, s.required]);
    return toConfiguration(row!);
  }

  async delete(tx: Transaction, organizationId: number): Promise<boolean> {
    return (await rowsOf(entityManager(tx), DELETE_SSO, [organizationId])).length > 0;
  }

  async markVerified(tx: Transaction, organizationId: number, token: string, domains: string[]): Promise<SsoConfiguration | undefined> {
    const row = await firstRowOf(entityManager(tx), MARK_VERIFIED, [organizationId, token, domains]);
    return row && toConfiguration(row);
  }

  async markUnverified(tx: Transaction, organizationId: number, token: string, domains: string[]): Promise<SsoConfiguration | undefined> {
    const row = await firstRowOf(entityManager(tx), MARK_UNVERIFIED, [organizationId, token, domains]);
    return row && toConfiguration(row);
  }

  async withVerifiedDomains(afterOrganizationId: number, limit: number): Promise<SsoConfiguration[]> {
    return (await rowsOf(this.db, WITH_VERIFIED_DOMAINS, [afterOrganizationId, limit])).map(toConfiguration);
  }

  async provingDomain(domain: string, limit: number): Promise<SsoConfiguration[]> {
    return (await rowsOf(this.db, PROVING_DOMAIN, [domain, limit])).map(toConfiguration);
  }
}
