import { Injectable, type Type } from '@nestjs/common';
import { CaseSource, type CaseSourceDefinition } from '../../../extension-api/index.js';

/**
 * A source the service ships, registered through the same decorator as an extension's; its
 * label is its source type, so default subjects read `<workflow> via Webhook - ...`. The class is
 * named `<sourceType>CaseSource`, as a clash message names it.
 */
export function builtInCaseSource(sourceType: string, caseSource: string): Type<CaseSourceDefinition> {
  @CaseSource()
  @Injectable()
  class BuiltInCaseSource implements CaseSourceDefinition {
    readonly sourceType = sourceType;
    readonly label = sourceType;
    readonly caseSource = caseSource;
  }
  Object.defineProperty(BuiltInCaseSource, 'name', { value: `${sourceType}CaseSource` });
  return BuiltInCaseSource;
}

/** Cases created through the cases API (`POST .../cases`) of `direct` workflows. */
export const ApiCaseSource = builtInCaseSource('API', 'direct');

/** Cases created by the incoming webhook of `direct` workflows. */
export const WebhookCaseSource = builtInCaseSource('Webhook', 'direct');
