import { Injectable } from '@nestjs/common';
import { SenderScheme, type SenderSchemeDefinition, type SenderSchemeOptions, type SignatureVerifier } from 'case-intake-service/extension-api';
import { SIGNATURE_HEADER, verifyTicketBusSignature } from './ticket-bus-signature.js';

const MIN_SECRET_LENGTH = 16;

/**
 * The ticket bus's signature as a scheme of the verified incoming webhook, for teams that point
 * the bus at a `direct` workflow's webhook URL instead of the ticket bus route:
 * `PUT .../webhook/verification {"scheme": "ticket_bus", "secret": "...", "tolerance_seconds": 60}`.
 */
@SenderScheme()
@Injectable()
export class TicketBusSenderScheme implements SenderSchemeDefinition {
  readonly name = 'ticket_bus';
  readonly options = ['tolerance_seconds'] as const;

  settle(options: SenderSchemeOptions, secret: string) {
    const problems = secret.length < MIN_SECRET_LENGTH ? [{ path: '/secret', error: `a ticket bus secret has at least ${MIN_SECRET_LENGTH} characters` }] : [];
    return { options, problems };
  }

  verifier(options: SenderSchemeOptions, secret: string): SignatureVerifier {
    const tolerance = options.tolerance_seconds!;
    return (request) => verifyTicketBusSignature(request.header(SIGNATURE_HEADER), secret, request.body, request.nowSeconds, tolerance);
  }
}
