import { Global, Module } from '@nestjs/common';
import { AuditEntriesService } from './application/audit-entries.service.js';
import { AuditEntryPurges } from './application/audit-entry-purges.js';
import { AuditLog } from './application/audit-log.js';
import { AuditTrail } from './application/audit-trail.js';
import { AuditController } from './http/audit.controller.js';
import { PostgresAuditEntryPurges } from './infrastructure/postgres-audit-entry-purges.js';
import { PostgresAuditLog } from './infrastructure/postgres-audit-log.js';
import { PostgresAuditTrail } from './infrastructure/postgres-audit-trail.js';

/**
 * The audit log (people.md §3). Global: every module that changes something through the admin or
 * operator API records it with AuditTrail, so this module depends on none of them.
 */
@Global()
@Module({
  controllers: [AuditController],
  providers: [
    AuditEntriesService,
    { provide: AuditLog, useClass: PostgresAuditLog },
    { provide: AuditTrail, useClass: PostgresAuditTrail },
    { provide: AuditEntryPurges, useClass: PostgresAuditEntryPurges },
  ],
  exports: [AuditTrail],
})
export class AuditModule {}
