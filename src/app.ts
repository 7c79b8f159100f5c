import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { CaseIntakeOptions } from './extension-api/extensions.js';
import { serveApiDocs } from './modules/api-docs/api-docs.js';
import { checkExtensionApiVersions } from './modules/extensions/extension-api-version.js';
import { serveDashboard } from './modules/dashboard/serve-dashboard.js';
import { FormSecretCheck } from './modules/forms/http/form-secret.check.js';
import { AdminCallerCheck } from './modules/people/http/admin-caller.check.js';
import { BearerTokenCheck } from './modules/tokens/http/bearer-token.check.js';
import { OperatorTokenCheck } from './modules/tokens/http/operator-token.check.js';
import { WebhookTokenCheck } from './modules/cases/http/webhook-token.check.js';
import type { Env } from './shared/config/env.js';
import { fastifyOptions, setUpFastify } from './shared/http/http-setup.js';
import { registerRateLimits } from './shared/http/rate-limits.js';
import { registerCredentialChecks } from './shared/http/authenticated-requests.js';
import { serveDirectRoutes } from './shared/http/direct-routes.js';
import { registerRecentChangeMarks } from './shared/http/recent-change-marks.js';
import { RecentChanges } from './shared/database/recent-changes.js';
import { ReplicaReads } from './shared/database/replica-reads.js';
import { SourceCredentialCheck } from './modules/workflows/http/source-credential.check.js';
import { createRedisClient } from './shared/redis/redis.client.js';
import { PinoNestLogger } from './shared/logging/logger.js';
import { createMetricsRegistry, httpLatencyHistogram, MetricsTokenCheck } from './shared/metrics/metrics.module.js';

/** Builds the whole service without listening, so tests and main.ts boot exactly the same app. */
export async function createApp(env: Env, logger: Logger, options: CaseIntakeOptions = {}): Promise<NestFastifyApplication> {
  // Before anything is opened: an extension built for another API stops the start with nothing to close.
  checkExtensionApiVersions(options.extensions ?? []);
  const metrics = createMetricsRegistry();
  const adapter = new FastifyAdapter(fastifyOptions(env));
  const fastify = adapter.getInstance();
  setUpFastify(fastify, logger, httpLatencyHistogram(metrics));
  const rateLimitRedis = createRedisClient(env);
  fastify.addHook('onClose', async () => rateLimitRedis.disconnect());
  await registerRateLimits(fastify, env, rateLimitRedis);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(env, logger, metrics, options.extensions), adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  // After the rate limits and before any route exists: credentials are checked before bodies are read.
  registerCredentialChecks(fastify, {
    bearer: app.get(BearerTokenCheck),
    admin: app.get(AdminCallerCheck),
    webhook: app.get(WebhookTokenCheck),
    operator: app.get(OperatorTokenCheck),
    form: app.get(FormSecretCheck),
    metrics: app.get(MetricsTokenCheck),
    source: app.get(SourceCredentialCheck),
  });
  serveDirectRoutes(fastify, app);
  if (env.DATABASE_READ_URL) {
    registerRecentChangeMarks(fastify, app.get(RecentChanges));
    app.get(ReplicaReads).registerMetrics(metrics);
  }
  try {
    await serveApiDocs(app, env.PUBLIC_BASE_URL!);
    await serveDashboard(app);
    await app.init();
  } catch (err) {
    // A start refused (an extension's name clash) leaves no connection open behind it; the
    // refusal is what the caller must see, not a failure of the clean-up.
    await app.close().catch(() => undefined);
    throw err;
  }
  return app;
}
