import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import { OPRF_ADMISSION_HEADER, precomputeFixedBases } from '@zeroid/protocol';
import { hardenedServerOptions } from '../http/server-options.ts';
import { errorHandler } from '../http/error-handler.ts';
import { registerGuessLimits } from '../http/guess-limits.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { acceptStrictJsonOnly } from '../http/strict-json.ts';
import { guessKeySecret } from '../limits/guess-key-secret.ts';
import type { OprfShareFile } from '../oprf/oprf-share-file.ts';
import type { AttemptRepository } from '../storage/types.ts';
import type { NodeConfig } from './node-config.ts';
import { admissionChecker } from './check-admission.ts';
import { nodeLimits } from '../limits/node-limits.ts';
import { nodeRoutes } from './node-routes.ts';

/**
 * An OPRF node's HTTP application, on the server's HTTP layer: the same strict JSON, security
 * headers, problem JSON, client keys and guess limits. It never listens (`main.ts` does). Its
 * counters live in the node's own storage; it never sees the server's database.
 */
export async function buildNodeApp(
  deps: { config: NodeConfig; share: OprfShareFile; attempts: AttemptRepository; ping: () => Promise<void> },
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<FastifyInstance> {
  const { config, share } = deps;
  precomputeFixedBases(); // a long-lived process: its DLEQ proofs' r·G from a window table (decision 066)
  const app = Fastify(
    hardenedServerOptions({ logger: options.logger ?? { level: config.logLevel }, trustProxy: config.trustProxy, https: false }),
  );
  acceptStrictJsonOnly(app);
  app.setErrorHandler(errorHandler);
  securityHeaders(app, { https: false });
  // The browser calls nodes from the app's origin: exactly the configured origins, nothing else.
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', OPRF_ADMISSION_HEADER],
    credentials: false,
  });
  // Client addresses are keyed under a secret derived from the share: private to this node.
  const limits = nodeLimits(config, deps.attempts, guessKeySecret(share.share));
  await registerGuessLimits(app, {
    perMinute: config.rateLimitPerMinute,
    ipv6Prefix: config.ipv6ClientPrefix,
    keyOf: (request) => limits.keyOf(request.ip),
  });
  nodeRoutes(app, { share, limits, checkAdmission: admissionChecker(config.admissionKeys, config.admissionMaxAgeMs), ping: deps.ping });
  return app;
}
