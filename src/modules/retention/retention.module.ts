import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { OrganizationsModule } from '../organizations/organizations.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { OwnedRetentionPurges } from './application/owned-retention-purges.js';
import { PurgePass } from './application/purge-pass.service.js';
import { PurgeMetrics, RetentionOverridesStore, RetentionPurges } from './application/retention.ports.js';
import { RetentionSettingsService } from './application/retention-settings.service.js';
import { RetentionController } from './http/retention.controller.js';
import { PostgresRetentionOverrides } from './infrastructure/postgres-retention-overrides.js';
import { PurgeSchedule } from './infrastructure/purge-schedule.service.js';
import { RETENTION_QUEUE } from './infrastructure/purge.queue.js';
import { TimePartitionSchedule } from './infrastructure/time-partition-schedule.service.js';
import { RetentionMetrics } from './infrastructure/retention.metrics.js';

/**
 * Retention: the admin API of per-organization overrides everywhere; the purge (a pass every
 * RETENTION_PURGE_INTERVAL_MS, on Bull) in worker roles only.
 */
@Module({})
export class RetentionModule {
  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: RetentionModule,
      imports: [OrganizationsModule, TokensModule, ...(worker ? [BullModule.registerQueue({ name: RETENTION_QUEUE })] : [])],
      controllers: [RetentionController],
      providers: [
        RetentionSettingsService,
        { provide: RetentionOverridesStore, useClass: PostgresRetentionOverrides },
        { provide: RetentionPurges, useClass: OwnedRetentionPurges },
        ...(worker
          ? [
              PurgePass,
              { provide: PurgeMetrics, useClass: RetentionMetrics },
              PurgeSchedule,
              TimePartitionSchedule,
            ]
          : []),
      ],
    };
  }
}
