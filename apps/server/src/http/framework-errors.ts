import type { FastifyServerOptions } from 'fastify';
import { errorHandler } from './error-handler.ts';
import { securityHeadersOutsideRouting } from './security-headers.ts';

/**
 * Fastify's `frameworkErrors`: errors raised before a request is routed (a URL that does not decode,
 * like `/%zz`; a path parameter over the length limit; a failed asynchronous constraint). Fastify's
 * default reply echoes the URL back in its message and runs no hook, so it carries none of our
 * headers. This gives those replies the same JSON error, headers and no-store as every other.
 */
export function frameworkErrors({ https }: { https: boolean }): NonNullable<FastifyServerOptions['frameworkErrors']> {
  const withHeaders = securityHeadersOutsideRouting({ https });
  return (error, request, reply) => {
    withHeaders(request, reply);
    errorHandler(error, request, reply);
  };
}
