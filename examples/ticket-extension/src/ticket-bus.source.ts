import { Injectable } from '@nestjs/common';
import { CaseIntake, CaseSource, type CaseSourceDefinition, type IntakeWorkflow, type SourceCredentialRequest } from 'case-intake-service/extension-api';

/** The organization secret (set with `PUT /api/admin/v1/secrets/TICKET_BUS_SECRET`) the bus signs with. */
export const TICKET_BUS_SECRET = 'TICKET_BUS_SECRET';

const WORKFLOW_ID = /^[1-9][0-9]{0,15}$/;

/** What a ticket bus route knows once its caller passed the first check: the workflow, and the secret its signature must be made with. */
export interface TicketBusCaller {
  workflow: IntakeWorkflow;
  secret: string;
}

/**
 * Cases from the ticket bus: workflows published with `"case_source": "ticket_bus"` take them,
 * and they show `"source_type": "ticket_bus"` wherever a case's source is shown.
 */
@CaseSource()
@Injectable()
export class TicketBusSource implements CaseSourceDefinition {
  readonly sourceType = 'ticket_bus';
  readonly label = 'Ticket bus';

  constructor(private readonly intake: CaseIntake) {}

  /**
   * Before the body is read: the route's workflow takes ticket bus cases and its organization
   * has a bus secret. Either missing is the same refusal as a bad signature, so callers cannot
   * probe for workflows; the signature itself, made over the body, is checked by the route.
   */
  async authenticate(request: SourceCredentialRequest): Promise<TicketBusCaller | undefined> {
    const workflowId = request.params.workflowId ?? '';
    const workflow = WORKFLOW_ID.test(workflowId) ? await this.intake.publishedWorkflow(this, Number(workflowId)) : undefined;
    const secret = workflow && (await this.intake.organizationSecret(workflow.organizationId, TICKET_BUS_SECRET));
    return workflow && secret !== undefined ? { workflow, secret } : undefined;
  }
}
