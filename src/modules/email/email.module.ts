import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CasesModule } from '../cases/cases.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { EmailCaseSource } from './application/email-case-source.js';
import { EmailAddressesService } from './application/email-addresses.service.js';
import { ReceiveEmailService } from './application/receive-email.service.js';
import { EmailAddressController, OperatorEmailAddressController } from './http/email-address.controllers.js';
import { InboundMailLimits } from './infrastructure/inbound-mail-limits.js';
import { SmtpListener } from './infrastructure/smtp-listener.js';
import { WorkflowEmailAddressOrmEntity } from './infrastructure/workflow-email-address.orm-entity.js';
import { TypeOrmEmailAddressStore } from './infrastructure/typeorm-email-address-store.js';
import { EmailAddressStore } from './application/email-address-store.js';

/** Email intake: per-workflow inbound addresses and the SMTP listener that turns mail into cases. */
@Module({
  imports: [TypeOrmModule.forFeature([WorkflowEmailAddressOrmEntity]), TokensModule, WorkflowsModule, CasesModule],
  controllers: [EmailAddressController, OperatorEmailAddressController],
  providers: [{ provide: EmailAddressStore, useClass: TypeOrmEmailAddressStore }, EmailAddressesService, ReceiveEmailService, InboundMailLimits, SmtpListener, EmailCaseSource],
  exports: [EmailAddressesService],
})
export class EmailModule {}
