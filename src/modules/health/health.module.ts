import { Module } from '@nestjs/common';
import { DatabaseProbe } from './application/database-probe.js';
import { HealthController } from './http/health.controller.js';
import { PostgresDatabaseProbe } from './infrastructure/postgres-database-probe.js';

@Module({ controllers: [HealthController], providers: [{ provide: DatabaseProbe, useClass: PostgresDatabaseProbe }] })
export class HealthModule {}
