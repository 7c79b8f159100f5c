import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { OrganizationStore } from '../application/organization-store.js';
import type { Organization } from '../domain/organization.js';
import { OrganizationOrmEntity } from './organization.orm-entity.js';

@Injectable()
export class TypeOrmOrganizationStore extends OrganizationStore {
  constructor(@InjectRepository(OrganizationOrmEntity) private readonly organizations: Repository<OrganizationOrmEntity>) {
    super();
  }

  async create(name: string): Promise<Organization> {
    const { id } = await this.organizations.save(this.organizations.create({ name }));
    // Read back for created_at, which the database sets.
    return this.organizations.findOneByOrFail({ id });
  }

  async ids(): Promise<number[]> {
    return (await this.organizations.find({ select: { id: true }, order: { id: 'ASC' } })).map((row) => row.id);
  }

  async names(ids: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.organizations.find({ select: { id: true, name: true }, where: { id: In([...new Set(ids)]) } });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  list(): Promise<Organization[]> {
    return this.organizations.find({ order: { id: 'ASC' } });
  }
}
