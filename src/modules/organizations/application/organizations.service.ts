import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { UsersService, type UserView } from '../../people/application/users.service.js';
import { TokensService } from '../../tokens/application/tokens.service.js';
import type { Organization } from '../domain/organization.js';
import { OrganizationStore } from './organization-store.js';

export interface OrganizationView {
  id: number;
  name: string;
  created_at: string;
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationStore,
    private readonly tokens: TokensService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly users: UsersService,
  ) {}

  /**
   * A new organization comes with its first admin token, shown this once, and with `ownerEmail`
   * its first owner, invited: all in one transaction, so an organization never lacks the owner
   * asked for, nor an owner the mail of their invitation.
   */
  async create(by: ChangeAuthor, name: string, ownerEmail?: string): Promise<{ organization: OrganizationView; admin_token: string; owner?: UserView }> {
    return this.transactions.run(async (tx) => {
      const organization = await this.organizations.create(tx, name);
      await this.audit.record(tx, { organizationId: organization.id, by, action: 'organization.created', target: { type: 'organization', id: String(organization.id) }, summary: { name } });
      const { secret } = await this.tokens.createIn(tx, by, organization.id, 'Initial admin token', 'admin');
      const owner = ownerEmail === undefined ? undefined : await this.users.inviteIn(tx, by, organization.id, ownerEmail, 'owner');
      return { organization: toView(organization), admin_token: secret, ...(owner ? { owner } : {}) };
    });
  }

  /** Every organization's id, in id order. */
  ids(): Promise<number[]> {
    return this.organizations.ids();
  }

  /** The names of the organizations with these ids, by id (unknown ids are absent). */
  names(ids: readonly number[]): Promise<Map<number, string>> {
    return this.organizations.names(ids);
  }

  async list(): Promise<OrganizationView[]> {
    return (await this.organizations.list()).map(toView);
  }
}

function toView(organization: Organization): OrganizationView {
  return { id: organization.id, name: organization.name, created_at: organization.createdAt.toISOString() };
}
