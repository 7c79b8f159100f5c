import { createApp } from './app.js';
import { InvalidEnvironmentError, validateEnv } from './shared/config/env.js';
import { createLogger } from './shared/logging/logger.js';

async function main(): Promise<void> {
  let env;
  try {
    env = validateEnv(process.env);
  } catch (err) {
    if (!(err instanceof InvalidEnvironmentError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
  const logger = createLogger(env.LOG_LEVEL);
  const app = await createApp(env, logger);
  app.enableShutdownHooks();
  if (env.ROLE !== 'worker') await app.listen({ port: env.PORT, host: env.HOST });
  logger.info({ role: env.ROLE, port: env.ROLE === 'worker' ? null : env.PORT }, 'case intake service started');

  // Nest closes HTTP (in-flight requests finish), queues and pools on SIGTERM; this bounds how long that may take.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), env.SHUTDOWN_GRACE_MS).unref());
  }
}

main().catch((err: unknown) => {
  console.error(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
