import { Injectable } from '@nestjs/common';
import { type CaseEvent, type CaseEventHandler, CaseEventListener } from '../../../extension-api/case-events.js';
import { CaseNotifications } from '../../cases/application/case-notifications.js';

/**
 * Tells the people watching a case that it moved to `Error`. A case-event listener: called by
 * a worker after the move committed, again if it fails, so the engine's unit of work gains no
 * statement. A repeated delivery of the event (its worker died) may queue the item twice; the
 * mail that sums it up stays one per minute.
 */
@CaseEventListener()
@Injectable()
export class ErroredCaseNotifier implements CaseEventHandler {
  readonly name = 'comments.errored_case_notifications';
  readonly events = ['case.errored'] as const;

  constructor(private readonly notifications: CaseNotifications) {}

  async handle(event: CaseEvent): Promise<void> {
    await this.notifications.notify({
      organizationId: event.organization_id,
      caseId: event.case_id,
      kind: 'error',
      summary: `Case #${event.case_id} “${event.case.subject}” moved to Error`,
    });
  }
}
