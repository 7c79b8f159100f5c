/**
 * `npm run rotate-encryption-key`: re-seals every stored secret with TOKEN_ENCRYPTION_KEY. Each
 * module that stores sealed secrets publishes its columns (with the statements over its own
 * tables); this composition root, like the app module, is the one place that knows them all.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { EMAIL_SEALED_COLUMNS } from './modules/email/infrastructure/email-sealed-columns.js';
import { FORM_SEALED_COLUMNS } from './modules/forms/infrastructure/form-sealed-columns.js';
import { SSO_SEALED_COLUMNS } from './modules/people/infrastructure/sso-sealed-columns.js';
import { DIGEST_SEALED_COLUMNS } from './modules/reporting/infrastructure/digest-sealed-columns.js';
import { SECRET_SEALED_COLUMNS } from './modules/secrets/infrastructure/secret-sealed-columns.js';
import { SUBSCRIPTION_SEALED_COLUMNS } from './modules/subscriptions/infrastructure/subscription-sealed-columns.js';
import { WORKFLOW_SEALED_COLUMNS } from './modules/workflows/infrastructure/workflow-sealed-columns.js';
import { validateEnv } from './shared/config/env.js';
import { secretBoxFor } from './shared/crypto/crypto.module.js';
import { rotateEncryptionKey } from './shared/crypto/rotate-encryption-key.js';
import type { SealedColumn } from './shared/crypto/sealed-columns.js';
import { dataSourceOptions } from './shared/database/data-source-options.js';

/** Every stored secret. A module that seals a new column publishes it with the others, or the rotation leaves it behind (key-rotation.e2e-spec.ts checks the schema against this list). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  ...WORKFLOW_SEALED_COLUMNS,
  ...SUBSCRIPTION_SEALED_COLUMNS,
  ...EMAIL_SEALED_COLUMNS,
  ...FORM_SEALED_COLUMNS,
  ...SECRET_SEALED_COLUMNS,
  ...DIGEST_SEALED_COLUMNS,
  ...SSO_SEALED_COLUMNS,
];

async function main(): Promise<number> {
  const env = validateEnv(process.env);
  const source = new DataSource(dataSourceOptions(env));
  await source.initialize();
  try {
    const counts = await rotateEncryptionKey(source, secretBoxFor(env), SEALED_COLUMNS);
    for (const { table, rewritten, current, unopenable } of counts) {
      console.log(`${table}: ${rewritten} re-encrypted, ${current} already current, ${unopenable.length} not opened`);
      if (unopenable.length) console.error(`${table}: no configured key opens the value of row(s) ${unopenable.join(', ')}`);
    }
    return counts.some((c) => c.unopenable.length) ? 1 : 0;
  } finally {
    await source.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`rotation failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
