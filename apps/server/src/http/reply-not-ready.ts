import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../problem.ts';
import { replyProblem } from './reply-problem.ts';

/**
 * The readiness probe's answer when storage does not answer: a 503 with a retry hint, logged with the
 * error's name and code only (a driver's message may carry connection details). Shared by the
 * server's and an OPRF node's `/healthz`.
 */
export function replyNotReady(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  request.log.warn({ err: { name: (error as Error).name, code: (error as { code?: string }).code } }, 'not ready');
  return replyProblem(reply, new Problem(503, 'NOT_READY', 'Storage is not reachable yet.', { 'retry-after': '5' }));
}
