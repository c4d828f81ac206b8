import type { FastifyServerOptions } from 'fastify';
import { AccessLogAtDebug, withRedactedRequests } from './access-log.ts';
import { BODY_LIMIT } from './body-limits.ts';
import { clientErrorReply } from './client-errors.ts';
import { frameworkErrors } from './framework-errors.ts';

/**
 * The Fastify options every public listener shares (the server and an OPRF node): redacted access
 * logs at debug, the configured proxies, strict body and schema handling, and timeouts for slow
 * clients (DESIGN §6: Node's defaults give a client 60 s to send its headers and 300 s for the whole
 * request, checked every 30 s).
 */
export function hardenedServerOptions({
  logger,
  trustProxy,
  https,
}: {
  logger: FastifyServerOptions['logger'];
  trustProxy: boolean | string | number;
  https: boolean;
}) {
  return {
    logger: withRedactedRequests(logger),
    logController: new AccessLogAtDebug(),
    // A hop count trusts that many proxies in front of us; otherwise true, false or addresses.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: BODY_LIMIT,
    http: { headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
    requestTimeout: 15_000,
    connectionTimeout: 20_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    frameworkErrors: frameworkErrors({ https }),
    clientErrorHandler: clientErrorReply({ https }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
  };
}
