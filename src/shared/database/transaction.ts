/**
 * A database transaction as ports see it: opaque, so domain and application code can run
 * several repositories in one transaction without knowing TypeORM.
 */
export interface Transaction {
  readonly __transaction: unique symbol;
}

export abstract class TransactionRunner {
  abstract run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}
