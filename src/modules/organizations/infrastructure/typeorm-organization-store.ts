import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { OrganizationStore } from '../application/organization-store.js';
import type { Organization } from '../domain/organization.js';
import { OrganizationOrmEntity } from './organization.orm-entity.js';

@Injectable()
export class TypeOrmOrganizationStore extends OrganizationStore {
  constructor(@InjectRepository(OrganizationOrmEntity) private readonly organizations: Repository<OrganizationOrmEntity>) {
    super();
  }

  async create(tx: Transaction, name: string): Promise<Organization> {
    const m = entityManager(tx);
    const { id } = await m.save(m.create(OrganizationOrmEntity, { name }));
    // Read back for created_at, which the database sets.
    return m.findOneByOrFail(OrganizationOrmEntity, { id });
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
