import { Injectable } from '@nestjs/common';
import { CaseSource, type CaseSourceDefinition } from '../../../extension-api/index.js';

/** Cases created by mail to the inbound address of `email` workflows. */
@CaseSource()
@Injectable()
export class EmailCaseSource implements CaseSourceDefinition {
  readonly sourceType = 'Email';
  readonly label = 'Email';
  readonly caseSource = 'email';
}
