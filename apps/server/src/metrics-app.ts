import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { errorHandler } from './http/error-handler.ts';
import { frameworkErrors } from './http/framework-errors.ts';
import { replyProblem } from './http/reply-problem.ts';
import { Problem } from './problem.ts';
import { securityHeaders } from './http/security-headers.ts';
import { metricsRoute } from './routes/metrics.ts';
import type { Metrics } from './metrics.ts';

/**
 * The METRICS_PORT listener: /metrics and nothing else, for a scraper on a private network (it binds
 * METRICS_HOST, loopback by default). It shares the public app's metrics, so it reports its traffic.
 * Like `buildApp`, it never listens; `server.ts` does.
 */
export async function buildMetricsApp({ config, metrics }: { config: Config; metrics: Metrics }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, frameworkErrors: frameworkErrors({ https: false }) });
  app.setErrorHandler(errorHandler);
  securityHeaders(app, { https: false });
  metricsRoute(app, { metrics, token: config.metricsToken });
  app.setNotFoundHandler(async (_request, reply) =>
    replyProblem(reply, new Problem(404, 'NOT_FOUND', 'This listener serves /metrics only.')),
  );
  return app;
}
