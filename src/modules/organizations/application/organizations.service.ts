import { Injectable } from '@nestjs/common';
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
  ) {}

  /** A new organization comes with its first admin token, shown this once. */
  async create(name: string): Promise<{ organization: OrganizationView; admin_token: string }> {
    const organization = await this.organizations.create(name);
    const { secret } = await this.tokens.create(organization.id, 'Initial admin token', 'admin');
    return { organization: toView(organization), admin_token: secret };
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
