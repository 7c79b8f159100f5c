import { Global, Module } from '@nestjs/common';
import { Env } from '../config/env.js';
import { SecretBox } from './secret-box.js';

/** The one SecretBox of the process: seals with TOKEN_ENCRYPTION_KEY, also opens with TOKEN_ENCRYPTION_OLD_KEYS. */
export function secretBoxFor(env: Pick<Env, 'TOKEN_ENCRYPTION_KEY' | 'TOKEN_ENCRYPTION_OLD_KEYS'>): SecretBox {
  const oldKeys = (env.TOKEN_ENCRYPTION_OLD_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  return new SecretBox(env.TOKEN_ENCRYPTION_KEY, oldKeys);
}

@Global()
@Module({
  providers: [{ provide: SecretBox, inject: [Env], useFactory: secretBoxFor }],
  exports: [SecretBox],
})
export class CryptoModule {}
