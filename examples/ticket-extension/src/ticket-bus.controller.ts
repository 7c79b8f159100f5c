import { Controller, Headers, HttpCode, Post, Req, Res, UnauthorizedException, UnprocessableEntityException } from '@nestjs/common';
import { CaseIntake, RequiresSourceCredential, SourceCredentialProof } from 'case-intake-service/extension-api';
import { SIGNATURE_HEADER, verifyTicketBusSignature } from './ticket-bus-signature.js';
import { type TicketBusCaller, TicketBusSource } from './ticket-bus.source.js';

/** How old (or how far ahead) a signed message may be. */
export const TICKET_BUS_TOLERANCE_SECONDS = 300;

/** What the route answers with its status; Fastify's reply, of which only `status` is used. */
interface Reply {
  status(code: number): unknown;
}

/**
 * `POST /api/ext/ticket-bus/v1/workflows/{workflowId}/cases`: one ticket bus message becomes one
 * case. The message is a JSON object: its top-level keys are the case's attributes, and its
 * `title`, when a string, the case's subject. `X-Ticket-Bus-Message-Id`, when sent, makes a
 * redelivery of the message answer 200 with the case it created. Every credential failure is the
 * same 401 (a workflow that does not take ticket bus cases, no secret set, a bad signature), so
 * callers cannot probe for workflows.
 */
@Controller('api/ext/ticket-bus/v1/workflows/:workflowId/cases')
@RequiresSourceCredential('ticket_bus')
export class TicketBusController {
  constructor(private readonly intake: CaseIntake, private readonly source: TicketBusSource) {}

  @Post()
  @HttpCode(201)
  async receive(
    @SourceCredentialProof() caller: TicketBusCaller,
    @Headers(SIGNATURE_HEADER) signature: string | undefined,
    @Headers('x-ticket-bus-message-id') messageId: string | undefined,
    @Req() request: unknown,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const message = this.intake.requestBody(request);
    // A body that is not JSON was requestBody's 422 before any signature is checked: it could not become a case either way.
    if (!verifyTicketBusSignature(signature, caller.secret, Buffer.from(message?.text ?? '', 'utf8'), Date.now() / 1000, TICKET_BUS_TOLERANCE_SECONDS)) throw new UnauthorizedException();
    if (!message) throw new UnprocessableEntityException();
    const title = (message.value as { title?: unknown } | null)?.title;
    if (title !== undefined && typeof title !== 'string') throw new UnprocessableEntityException();
    const { caseId, replayed } = await this.intake.createCase(this.source, { workflowId: caller.workflow.id, attributes: message, subject: title, idempotencyKey: messageId });
    if (replayed) reply.status(200);
    return { case: { id: caseId, source_type: this.source.sourceType }, replayed };
  }
}
