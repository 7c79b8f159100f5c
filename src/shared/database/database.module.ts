import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Env } from '../config/env.js';
import { dataSourceOptions } from './data-source-options.js';
import { RecentChanges } from './recent-changes.js';
import { ReplicaReads } from './replica-reads.js';
import { TransactionRunner } from './transaction.js';
import { TypeOrmTransactionRunner } from './typeorm-transaction-runner.js';

/**
 * The app's TypeORM data source: the same options as `ormconfig.ts`; the schema comes from
 * migrations only. And the reads a streaming replica may serve (ReplicaReads, DATABASE_READ_URL).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [Env],
      useFactory: (env: Env) => ({ ...dataSourceOptions(env), autoLoadEntities: true, retryAttempts: 3, retryDelay: 1000 }),
    }),
  ],
  providers: [{ provide: TransactionRunner, useClass: TypeOrmTransactionRunner }, RecentChanges, ReplicaReads],
  exports: [TransactionRunner, RecentChanges, ReplicaReads],
})
export class DatabaseModule {}
