import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { StepTypeRegistry } from './step-type.registry.js';

/** The registries of what extensions (and the built-in modules, the same way) add to the service. */
@Module({
  imports: [DiscoveryModule],
  providers: [StepTypeRegistry],
  exports: [StepTypeRegistry],
})
export class ExtensionsModule {}
