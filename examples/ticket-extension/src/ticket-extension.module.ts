import { Module } from '@nestjs/common';
import { OpenTicketStep } from './open-ticket.step.js';
import { TicketBusController } from './ticket-bus.controller.js';
import { TicketBusSenderScheme } from './ticket-bus.sender-scheme.js';
import { TicketBusSource } from './ticket-bus.source.js';

/**
 * An example extension for a team with an in-house ticket system: a step that opens a ticket in
 * it (`open_ticket`), a case source its message bus posts to (`ticket_bus`), and the bus's
 * signature as a sender scheme. Load it with `createApp(env, logger, { extensions:
 * [TicketExtensionModule] })`, or name this file's built module in EXTENSIONS (its default
 * export is the module). `apiVersion` is the extension API it was written against, as a literal:
 * a service whose API does not fit it refuses to start.
 */
@Module({
  controllers: [TicketBusController],
  providers: [OpenTicketStep, TicketBusSource, TicketBusSenderScheme],
})
export class TicketExtensionModule {
  static readonly apiVersion = '1.0.0';
}

export default TicketExtensionModule;
