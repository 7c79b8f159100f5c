import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CasesModule } from '../cases/cases.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { FormCaseSource } from './application/form-case-source.js';
import { RequestFormsService } from './application/request-forms.service.js';
import { SubmitFormService } from './application/submit-form.service.js';
import { OperatorRequestFormController, RequestFormController } from './http/form.controllers.js';
import { FormPagesController } from './http/form-pages.controller.js';
import { FormSecretCheck } from './http/form-secret.check.js';
import { WorkflowFormOrmEntity } from './infrastructure/workflow-form.orm-entity.js';
import { TypeOrmRequestFormStore } from './infrastructure/typeorm-request-form-store.js';
import { RequestFormStore } from './application/request-form-store.js';

/** The hosted request form of ticketing workflows: per-workflow secret URLs and the pages that turn posts into cases. */
@Module({
  imports: [TypeOrmModule.forFeature([WorkflowFormOrmEntity]), TokensModule, WorkflowsModule, CasesModule],
  controllers: [RequestFormController, OperatorRequestFormController, FormPagesController],
  providers: [{ provide: RequestFormStore, useClass: TypeOrmRequestFormStore }, RequestFormsService, SubmitFormService, FormSecretCheck, FormCaseSource],
})
export class FormsModule {}
