import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type Transaction, TransactionRunner } from './transaction.js';

@Injectable()
export class TypeOrmTransactionRunner extends TransactionRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(manager as unknown as Transaction));
  }
}

/** The EntityManager behind a Transaction handed out by TypeOrmTransactionRunner. */
export function entityManager(tx: Transaction): EntityManager {
  return tx as unknown as EntityManager;
}
