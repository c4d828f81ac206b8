import type { FastifyReply } from 'fastify';
import type { Problem } from '../problem.ts';

/**
 * Sends `problem` as every error reply goes out: its status, its headers, and the body
 * `{error: {code, message}}`. The error handler sends thrown Problems through here; a handler that
 * answers an error without throwing (a not-found handler, a probe) calls it directly.
 */
export function replyProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply
    .code(problem.statusCode)
    .headers(problem.headers)
    .send({ error: { code: problem.code, message: problem.message } });
}
