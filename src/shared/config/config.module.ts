import { Global, Module } from '@nestjs/common';
import { Env, validateEnv } from './env.js';

/** Provides the validated `Env`; reading `process.env` anywhere else is a bug. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(env: Env = validateEnv(process.env)) {
    return { module: ConfigModule, providers: [{ provide: Env, useValue: env }], exports: [Env] };
  }
}
