import { Injectable } from '@nestjs/common';
import { CaseSource, type CaseSourceDefinition } from '../../../extension-api/index.js';

/** Cases created by the hosted request form of `ticketing` workflows. */
@CaseSource()
@Injectable()
export class FormCaseSource implements CaseSourceDefinition {
  readonly sourceType = 'Form';
  readonly label = 'Form';
  readonly caseSource = 'ticketing';
}
