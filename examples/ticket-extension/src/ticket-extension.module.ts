import { Module } from '@nestjs/common';
import { OpenTicketStep } from './open-ticket.step.js';

/**
 * An example extension: a step that opens a ticket in an outside ticketing system. Load it with
 * `createApp(env, logger, { extensions: [TicketExtensionModule] })`, or name this file's built
 * module in EXTENSIONS (its default export is the module).
 */
@Module({
  providers: [OpenTicketStep],
})
export class TicketExtensionModule {}

export default TicketExtensionModule;
