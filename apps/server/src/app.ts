import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import type { AppDeps } from './app-deps.ts';
import { routeDeps } from './route-use-cases.ts';
import { allowQueuedRequests } from './http/queued-request-timeout.ts';
import { hardenedServerOptions } from './http/server-options.ts';
import { errorHandler } from './http/error-handler.ts';
import { acceptStrictJsonOnly } from './http/strict-json.ts';
import { registerGuessLimits } from './http/guess-limits.ts';
import { securityHeaders } from './http/security-headers.ts';
import { serveWebApp } from './http/web-app.ts';
import { registerOpenApi } from './openapi/register-openapi.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';
import { integrationGuideRoutes } from './routes/integration-guide.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { challengeRoute } from './routes/challenge.ts';
import { reservationRoutes } from './routes/reservations.ts';
import { didDocumentRoute } from './routes/did-document.ts';
import { eraseRoute } from './routes/erase.ts';
import { issuersRoute } from './routes/issuers.ts';
import { healthRoutes } from './routes/health.ts';
import { membersRoute } from './routes/members.ts';
import { credentialMembersRoute } from './routes/credential-members.ts';
import { metricsRoute } from './routes/metrics.ts';
import { oprfRoutes } from './routes/oprf.ts';
import { qrCodeRoute } from './routes/qr-code.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { registerRoute } from './routes/register.ts';
import { verifyRoute } from './routes/verify.ts';
// Sign in with ZeroID (decision 023).
import { signInWithZeroIdRoutes } from './routes/sign-in-with-zeroid.ts';

/**
 * Builds the whole HTTP application around the services of `createServices` (compose.ts), and
 * constructs none itself. It never listens: `server.ts` does, and tests call `inject()`. Routes are
 * thin: validate, call a use case, reply.
 */
export async function buildApp(services: AppDeps, options: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  const { config, metrics } = services;
  const https = config.publicUrl.startsWith('https:');
  const app = Fastify(
    hardenedServerOptions({ logger: options.logger ?? { level: config.logLevel }, trustProxy: config.trustProxy, https }),
  );

  acceptStrictJsonOnly(app);

  app.setErrorHandler(errorHandler);
  securityHeaders(app, { https, oprfNodes: config.oprfNodes });
  await app.register(cors, {
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST'],
    credentials: false,
  });

  await registerGuessLimits(app, services.limits);
  // A noisy biometric's request evaluates some 20,000 lockers on a derivation thread: seconds, more
  // under load, with its connection silent meanwhile (decision 084).
  if (config.oprfNodes.length > 0 || config.experimentalNoisyBiometrics) allowQueuedRequests(app);
  await registerOpenApi(app, { publicUrl: config.publicUrl });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ route, method: request.method, status: reply.statusCode });
    if (reply.statusCode === 429) metrics.rateLimited.inc({ route });
  });
  if (config.metricsToken) metricsRoute(app, { metrics, token: config.metricsToken });

  // The routes get every dependency but storage, which only the use cases bound to it hold.
  const routes = routeDeps(services);
  healthRoutes(app, routes);
  registerRoute(app, routes);
  verifyRoute(app, routes);
  eraseRoute(app, routes); // decision 022
  issuersRoute(app, routes); // decision 079
  qrCodeRoute(app, routes);
  oprfRoutes(app, routes);
  challengeRoute(app, routes);
  reservationRoutes(app, routes); // decision 074
  membersRoute(app, routes);
  credentialMembersRoute(app, routes);
  artifactRoutes(app, routes);
  didDocumentRoute(app, routes);
  sessionRoutes(app, routes);
  await apiDocsRoutes(app);
  // The guide sits at the repository's root; src/ and the built dist/ are both one level under apps/server.
  integrationGuideRoutes(app, { file: new URL('../../../docs/sign-in-with-zeroid.md', import.meta.url) });
  // Sign in with ZeroID (decision 023): the OpenID provider and the sign-in screen's calls.
  signInWithZeroIdRoutes(app, routes);
  await serveWebApp(app, config.webDist);

  return app;
}
