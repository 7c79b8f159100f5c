import type { Transaction } from '../../../shared/database/transaction.js';

/** A channel secret as stored: hashed, to find its workflow, and sealed, to show it again. */
export interface StoredChannelSecret {
  secretHash: Buffer;
  secretCiphertext: string;
}

/** The table of one channel's secrets (inbound addresses, form URLs), bound in the channel's module. */
export abstract class ChannelSecretStore {
  /** Stores the workflow's secret unless it has one already; whether it did. */
  abstract insertIfAbsent(tx: Transaction, workflowId: number, secret: StoredChannelSecret): Promise<boolean>;
  abstract find(workflowId: number): Promise<StoredChannelSecret | undefined>;
  /** Replaces the workflow's secret; whether it had one. */
  abstract replace(tx: Transaction, workflowId: number, secret: StoredChannelSecret): Promise<boolean>;
  abstract workflowIdByHash(secretHash: Buffer): Promise<number | undefined>;
}
