import { Injectable } from '@nestjs/common';
import { CaseSource, type CaseSourceDefinition } from '../../../src/extension-api/index.js';

/**
 * Cases from the ticket bus: workflows published with `"case_source": "ticket_bus"` take them,
 * and they show `"source_type": "ticket_bus"` wherever a case's source is shown.
 */
@CaseSource()
@Injectable()
export class TicketBusSource implements CaseSourceDefinition {
  readonly sourceType = 'ticket_bus';
  readonly label = 'Ticket bus';
}
