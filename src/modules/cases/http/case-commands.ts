import { memberText } from '../../../shared/json/json-text.js';
import type { TokenPrincipal } from '../../tokens/domain/principal.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import type { CreateCaseCommand } from '../application/create-case.service.js';
import type { CreateCaseRequest } from './create-case.request.js';
import { webhookAttributes } from './webhook-case.request.js';

/**
 * `POST .../cases` as a command: `requestText` is the body exactly as sent (null without one),
 * since the attributes are stored, and an idempotent request is compared, as that text.
 */
export function apiCaseCommand(
  caller: TokenPrincipal,
  workflow: WorkflowVersion,
  body: CreateCaseRequest,
  requestText: string | null,
  idempotencyKey: string | undefined,
): CreateCaseCommand<'case'> {
  return {
    source: 'API',
    organizationId: caller.organizationId,
    workflow,
    subject: body.subject,
    mode: body.mode ?? 'live',
    attributes: { value: body.attributes ?? {}, text: (requestText !== null && memberText(requestText, 'attributes')) || '{}' },
    idempotency: idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestText: requestText ?? '' },
    actor: { kind: 'api_token', tokenId: caller.tokenId },
    answer: 'case',
  };
}

/**
 * A webhook delivery as a command: a live case on the version WebhookTokenCheck found, answered
 * with its id; de-duplicated by its key when the version says so and the body holds one.
 */
export function webhookCaseCommand(target: { organizationId: number; version: WorkflowVersion }, body: unknown): CreateCaseCommand<'id'> {
  const attributes = webhookAttributes(body);
  const dedup = target.version.webhookDedup;
  const key = dedup?.keyOf(attributes.text);
  return {
    source: 'Webhook',
    organizationId: target.organizationId,
    workflow: target.version,
    mode: 'live',
    attributes,
    dedup: key === undefined ? undefined : { key, windowSeconds: dedup!.windowSeconds },
    actor: { kind: 'webhook' },
    answer: 'id',
  };
}
