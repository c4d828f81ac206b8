import type { FastifyRequest } from 'fastify';

/**
 * Who a request comes from, for per-client caps: the address Fastify derived under the configured
 * trustProxy setting (so a spoofed X-Forwarded-For changes nothing). One function, so every cap
 * groups clients the same way.
 */
export function clientKey(request: FastifyRequest): string {
  return request.ip;
}
