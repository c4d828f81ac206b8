import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import type { AppDeps, Lifecycle } from './app-deps.ts';
import { admissionSeed, admissionSigner } from './oprf/oprf-admission-signer.ts';
import { GuessBudget } from './limits/guess-budget.ts';
import { inProcessDeriver, type RawDeriver } from './identity/raw/raw-deriver.ts';
import { createProofVerifier, type ProofVerifier } from './proofs/verifier/proof-verifier.ts';
import { verificationKeyPaths } from './proofs/verifier/verification-keys.ts';
import { createMetrics, observeSessionStreams, type Metrics } from './metrics.ts';
import { createSessionWatcher } from './sessions/session-watcher.ts';
import { createSessionStreamCaps } from './sessions/session-stream-caps.ts';
import { createSessionQrImages } from './sessions/session-qr-images.ts';
import { providerHolder } from './openid/provider-holder.ts';
import { hardenedServerOptions } from './http/server-options.ts';
import { errorHandler } from './http/error-handler.ts';
import { acceptStrictJsonOnly } from './http/strict-json.ts';
import { registerGuessLimits, type GuessLimitSettings } from './http/guess-limits.ts';
import { securityHeaders } from './http/security-headers.ts';
import { serveWebApp } from './http/web-app.ts';
import { registerOpenApi } from './http/openapi.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { challengeRoute } from './routes/challenge.ts';
import { didDocumentRoute } from './routes/did-document.ts';
import { eraseRoute } from './routes/erase.ts';
import { healthRoutes } from './routes/health.ts';
import { membersRoute } from './routes/members.ts';
import { metricsRoute } from './routes/metrics.ts';
import { oprfRoutes } from './routes/oprf.ts';
import { qrCodeRoute } from './routes/qr-code.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { registerRoute } from './routes/register.ts';
import { verifyRoute } from './routes/verify.ts';
// Sign in with ZeroID (decision 023).
import { signInWithZeroIdRoutes } from './routes/sign-in-with-zeroid.ts';

/**
 * Builds the whole HTTP application around ready dependencies. It never listens: `server.ts` does,
 * and tests call `inject()`. Routes are thin: validate, call a service, reply.
 */
export async function buildApp(
  deps: Omit<
    AppDeps,
    | 'limits'
    | 'metrics'
    | 'lifecycle'
    | 'deriver'
    | 'proofVerifier'
    | 'sessionWatcher'
    | 'streamCaps'
    | 'qrImages'
    | 'openidProvider'
    | 'admissions'
  > & {
    /** Keys client addresses in the attempt counters (`attemptKeySecret` of the OPRF key). */
    attemptKeySecret: Uint8Array;
    /** Seals the OpenID keys in the database (`loadOidcKeySecret`, decision 038). */
    oidcKeySecret: Uint8Array;
    metrics?: Metrics;
    lifecycle?: Lifecycle;
    deriver?: RawDeriver;
    proofVerifier?: ProofVerifier;
  },
  options: { logger?: FastifyServerOptions['logger']; eager?: boolean } = {},
): Promise<FastifyInstance> {
  const { config } = deps;
  const https = config.publicUrl.startsWith('https:');
  const app = Fastify(
    hardenedServerOptions({ logger: options.logger ?? { level: config.logLevel }, trustProxy: config.trustProxy, https }),
  );

  acceptStrictJsonOnly(app);

  app.setErrorHandler(errorHandler);
  await securityHeaders(app, { https, oprfNodes: config.oprfNodes });
  await app.register(cors, {
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST'],
    credentials: false,
  });

  const limitsOn = config.rateLimitPerMinute > 0;
  const limits: GuessLimitSettings = {
    perMinute: config.rateLimitPerMinute,
    ipv6Prefix: config.ipv6ClientPrefix,
    budget: new GuessBudget(
      deps.storage.attempts,
      {
        globalPerMinute: limitsOn ? config.rateLimitGlobalPerMinute : 0,
        failuresBeforeDelay: limitsOn ? config.failedVerificationsBeforeDelay : 0,
        guessesBeforeDelay: limitsOn ? config.guessesBeforeDelay : 0,
        delayMs: config.failedVerificationDelayMs,
        maxDelayMs: config.failedVerificationMaxDelayMs,
        forgetAfterMs: config.failedVerificationForgetMs,
      },
      deps.attemptKeySecret,
    ),
  };
  await registerGuessLimits(app, limits);
  await registerOpenApi(app, { publicUrl: config.publicUrl });
  const metrics = deps.metrics ?? createMetrics();
  const proofVerifier =
    deps.proofVerifier ??
    createProofVerifier({ keyPaths: verificationKeyPaths(deps.artifacts), threads: config.proofVerifierThreads, eager: options.eager });
  if (!deps.proofVerifier) app.addHook('onClose', () => proofVerifier.close());
  const sessionWatcher = createSessionWatcher(deps.storage.sessions, {
    intervalMs: config.sessionPollMs,
    onError: (error) => app.log.warn({ err: { name: (error as Error).name } }, 'session poll failed'),
  });
  app.addHook('onClose', async () => sessionWatcher.close());
  const routeDeps: AppDeps = {
    ...deps,
    proofVerifier,
    lifecycle: deps.lifecycle ?? { warmingUp: false, draining: false },
    deriver: deps.deriver ?? inProcessDeriver(requireKey(deps.oprf)),
    admissions: deps.oprfNodes ? admissionSigner(admissionSeed(deps.attemptKeySecret)) : undefined,
    limits,
    metrics,
    sessionWatcher,
    streamCaps: createSessionStreamCaps({
      perClient: config.sessionStreamsPerClient,
      perSession: config.sessionStreamsPerSession,
      total: config.sessionStreamsMax,
    }),
    qrImages: createSessionQrImages({
      link: (session) => `${config.publicUrl}/user-verification?session=${session}`,
      maxEntries: config.qrCacheEntries,
    }),
    openidProvider: providerHolder({
      issuer: config.publicUrl,
      oidc: deps.storage.oidc,
      keySecret: deps.oidcKeySecret,
      signInTtlSeconds: config.signInTtlSeconds,
    }),
  };
  if (!deps.metrics) {
    observeSessionStreams(metrics, () => ({ streams: routeDeps.streamCaps.openStreams, watchedSessions: sessionWatcher.watchedSessions }));
  }
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ route, method: request.method, status: reply.statusCode });
    if (reply.statusCode === 429) metrics.rateLimited.inc({ route });
  });
  if (config.metricsToken) metricsRoute(app, { metrics, token: config.metricsToken });

  healthRoutes(app, routeDeps);
  registerRoute(app, routeDeps);
  verifyRoute(app, routeDeps);
  eraseRoute(app, routeDeps); // decision 022
  qrCodeRoute(app, routeDeps);
  oprfRoutes(app, routeDeps);
  challengeRoute(app, routeDeps);
  membersRoute(app, routeDeps);
  artifactRoutes(app, routeDeps);
  didDocumentRoute(app, routeDeps);
  sessionRoutes(app, routeDeps);
  await apiDocsRoutes(app);
  // Sign in with ZeroID (decision 023): the OpenID provider and the sign-in screen's calls.
  signInWithZeroIdRoutes(app, routeDeps);
  await serveWebApp(app, config.webDist);

  return app;
}

function requireKey(oprf: AppDeps['oprf']) {
  if (!oprf) throw new Error('buildApp needs a deriver when it has no OPRF key (threshold mode)');
  return oprf;
}
