import { Injectable } from '@nestjs/common';
import { CaseSource, type CaseSourceDefinition } from '../../../extension-api/index.js';

/** Cases created through the cases API (`POST .../cases`) of `direct` workflows. */
@CaseSource()
@Injectable()
export class ApiCaseSource implements CaseSourceDefinition {
  readonly sourceType = 'API';
  readonly label = 'API';
  readonly caseSource = 'direct';
}

/** Cases created by the incoming webhook of `direct` workflows. */
@CaseSource()
@Injectable()
export class WebhookCaseSource implements CaseSourceDefinition {
  readonly sourceType = 'Webhook';
  readonly label = 'Webhook';
  readonly caseSource = 'direct';
}
