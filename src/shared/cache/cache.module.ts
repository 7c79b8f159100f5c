import { Global, Module } from '@nestjs/common';
import { CacheGeneration } from './cache-generation.js';

@Global()
@Module({ providers: [CacheGeneration], exports: [CacheGeneration] })
export class CacheModule {}
