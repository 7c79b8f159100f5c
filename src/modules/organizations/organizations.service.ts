import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { TokensService } from '../tokens/tokens.service.js';
import { OrganizationOrmEntity } from './organization.orm-entity.js';

export interface OrganizationView {
  id: number;
  name: string;
  created_at: string;
}

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectRepository(OrganizationOrmEntity) private readonly organizations: Repository<OrganizationOrmEntity>,
    private readonly tokens: TokensService,
  ) {}

  /** A new organization comes with its first admin token, shown this once. */
  async create(name: string): Promise<{ organization: OrganizationView; admin_token: string }> {
    const { id } = await this.organizations.save(this.organizations.create({ name }));
    const organization = await this.organizations.findOneByOrFail({ id });
    const { secret } = await this.tokens.create(id, 'Initial admin token', 'admin');
    return { organization: toView(organization), admin_token: secret };
  }

  /** Every organization's id, in id order. */
  async ids(): Promise<number[]> {
    return (await this.organizations.find({ select: { id: true }, order: { id: 'ASC' } })).map((row) => row.id);
  }

  /** The names of the organizations with these ids, by id (unknown ids are absent). */
  async names(ids: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.organizations.find({ select: { id: true, name: true }, where: { id: In([...new Set(ids)]) } });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async list(): Promise<OrganizationView[]> {
    return (await this.organizations.find({ order: { id: 'ASC' } })).map(toView);
  }
}

function toView(row: OrganizationOrmEntity): OrganizationView {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString() };
}
