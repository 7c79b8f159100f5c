import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { WatcherStore } from '../application/comment-ports.js';

@Injectable()
export class PostgresWatcherStore extends WatcherStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async watch(tx: Transaction | undefined, organizationId: number, caseId: number, userIds: readonly number[]): Promise<void> {
    const runner = tx ? entityManager(tx) : this.db;
    await runner.query(
      `INSERT INTO case_watchers (organization_id, case_id, user_id) SELECT $1, $2, unnest($3::bigint[])
       ON CONFLICT DO NOTHING`,
      [organizationId, caseId, userIds],
    );
  }

  async unwatch(tx: Transaction, organizationId: number, caseId: number, userId: number): Promise<void> {
    await entityManager(tx).query('DELETE FROM case_watchers WHERE organization_id = $1 AND case_id = $2 AND user_id = $3', [organizationId, caseId, userId]);
  }

  async watchersOf(organizationId: number, caseId: number, tx?: Transaction): Promise<number[]> {
    const rows = (await (tx ? entityManager(tx) : this.db).query('SELECT user_id FROM case_watchers WHERE organization_id = $1 AND case_id = $2 ORDER BY user_id', [organizationId, caseId])) as { user_id: string }[];
    return rows.map((r) => Number(r.user_id));
  }
}
