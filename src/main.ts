import { createApp } from './app.js';
import { listenForMail } from './modules/email/infrastructure/smtp-listener.js';
import { loadExtensions } from './modules/extensions/load-extensions.js';
import { InvalidEnvironmentError, validateEnv, type Env } from './shared/config/env.js';
import { createLogger } from './shared/logging/logger.js';

async function main(): Promise<void> {
  let env: Env;
  try {
    env = validateEnv(process.env);
  } catch (err) {
    if (!(err instanceof InvalidEnvironmentError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
  const logger = createLogger(env.LOG_LEVEL);
  const app = await createApp(env, logger, { extensions: await loadExtensions(env.EXTENSIONS) });
  // Every role listens: a worker serves /healthz, /readyz and /metrics for its probes and
  // scrapes (deploy/ routes no traffic to it, so it takes no API requests in practice).
  await app.listen({ port: env.PORT, host: env.HOST });
  const smtpPort = await listenForMail(app, env);
  logger.info({ role: env.ROLE, port: env.PORT, smtp_port: smtpPort }, 'case intake service started');

  // Graceful stop: HTTP and SMTP stop accepting and finish requests and messages in flight,
  // workers finish their jobs, queues and pools close; then exit 0. SHUTDOWN_GRACE_MS bounds how long that may take.
  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took longer than SHUTDOWN_GRACE_MS; exiting');
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => {
        logger.info('stopped');
        logger.flush(() => process.exit(0));
      },
      (err: unknown) => {
        logger.error({ err: String(err) }, 'shutdown failed');
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
