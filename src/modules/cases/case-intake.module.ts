import { Global, Module } from '@nestjs/common';
import { CaseIntake } from '../../extension-api/index.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { CasesModule } from './cases.module.js';
import { SourceCaseIntake } from './http/source-case-intake.js';

/** Offers CaseIntake to every module, so an extension's case source injects it without importing the service's modules. */
@Global()
@Module({
  imports: [CasesModule, WorkflowsModule, SecretsModule],
  providers: [{ provide: CaseIntake, useClass: SourceCaseIntake }],
  exports: [CaseIntake],
})
export class CaseIntakeModule {}
