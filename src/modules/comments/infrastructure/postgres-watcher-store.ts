import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { rowsOf, statement } from './persistence.js';
import { WatcherStore } from '../application/comment-ports.js';

const WATCH = statement(
  `INSERT INTO case_watchers (organization_id, case_id, user_id) SELECT $1, $2, unnest($3::bigint[])
   ON CONFLICT DO NOTHING`,
);
const UNWATCH = statement('DELETE FROM case_watchers WHERE organization_id = $1 AND case_id = $2 AND user_id = $3');
const WATCHERS_OF = statement('SELECT user_id FROM case_watchers WHERE organization_id = $1 AND case_id = $2 ORDER BY user_id', { user_id: column.int8 });

@Injectable()
export class PostgresWatcherStore extends WatcherStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async watch(tx: Transaction | undefined, organizationId: number, caseId: number, userIds: readonly number[]): Promise<void> {
    const runner = tx ? entityManager(tx) : this.db;
    await rowsOf(runner, WATCH, [organizationId, caseId, userIds]);

  }

  async unwatch(tx: Transaction, organizationId: number, caseId: number, userId: number): Promise<void> {
    await rowsOf(entityManager(tx), UNWATCH, [organizationId, caseId, userId]);
  }

  async watchersOf(organizationId: number, caseId: number, tx?: Transaction): Promise<number[]> {
    const rows = await rowsOf(tx ? entityManager(tx) : this.db, WATCHERS_OF, [organizationId, caseId]);
    return rows.map((r) => Number(r.user_id));
  }
}
