import type { Repository } from 'typeorm';
import type { ChannelSecretColumns } from './channel-secret-columns.js';
import type { Transaction } from './transaction.js';
import { entityManager } from './typeorm-transaction-runner.js';

/**
 * The workflows module's `ChannelSecretStore` over any table of `ChannelSecretColumns`, which
 * each channel's module extends with its own table (shared code cannot name the port itself).
 */
export class ChannelSecretRows {
  constructor(private readonly rows: Repository<ChannelSecretColumns>) {}

  async insertIfAbsent(tx: Transaction, workflowId: number, secret: Pick<ChannelSecretColumns, 'secretHash' | 'secretCiphertext'>): Promise<boolean> {
    const result = await entityManager(tx).createQueryBuilder().insert().into(this.rows.target).values({ workflowId, ...secret }).orIgnore().returning('workflow_id').execute();
    return result.raw.length > 0;
  }

  async find(workflowId: number): Promise<ChannelSecretColumns | undefined> {
    return (await this.rows.findOneBy({ workflowId })) ?? undefined;
  }

  async replace(tx: Transaction, workflowId: number, secret: Pick<ChannelSecretColumns, 'secretHash' | 'secretCiphertext'>): Promise<boolean> {
    const result = await entityManager(tx).update(this.rows.target, { workflowId }, { ...secret, rotatedAt: () => 'now()' });
    return Boolean(result.affected);
  }

  async workflowIdByHash(secretHash: Buffer): Promise<number | undefined> {
    const row = await this.rows.findOne({ select: { workflowId: true }, where: { secretHash } });
    return row?.workflowId;
  }
}
