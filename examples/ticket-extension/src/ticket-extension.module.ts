import { Module } from '@nestjs/common';
import { TicketBusController } from './ticket-bus.controller.js';
import { TicketBusSenderScheme } from './ticket-bus.sender-scheme.js';
import { TicketBusSource } from './ticket-bus.source.js';

/** The example extension: `createApp(env, logger, { extensions: [TicketExtensionModule] })`. */
@Module({
  controllers: [TicketBusController],
  providers: [TicketBusSource, TicketBusSenderScheme],
})
export class TicketExtensionModule {}
