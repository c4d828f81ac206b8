import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * `reply.hijack()`, keeping on the raw response the headers Fastify's hooks have set so far (the
 * security headers of DESIGN §6, CORS): a hijacked reply is written by hand, and would otherwise go
 * out without them. For the session event stream and the OpenID provider's hand-over.
 */
export function hijackWithHeaders(reply: FastifyReply): ServerResponse {
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  return reply.raw;
}
