import type { FastifyInstance } from 'fastify';
import { readyGuide, aliveGuide } from './health.openapi.ts';
import type { RouteDeps } from '../route-use-cases.ts';
import { replyNotReady } from '../http/reply-not-ready.ts';
import { replyProblem } from '../http/reply-problem.ts';
import { Problem } from '../problem.ts';

/**
 * Liveness (the process answers) and readiness (identity/readiness.ts: warmed up, not shutting down,
 * a key or enough nodes, storage answers, the tree is loaded).
 */
export function healthRoutes(app: FastifyInstance, deps: RouteDeps) {
  app.get('/livez', { schema: { 'x-guide': aliveGuide } }, async () => ({ status: 'ok' }));
  app.get('/healthz', { schema: { 'x-guide': readyGuide } }, async (request, reply) => {
    try {
      return await deps.useCases.readiness();
    } catch (error) {
      // The process's own state says why; anything else is storage not answering.
      if (error instanceof Problem) return replyProblem(reply, error);
      return replyNotReady(request, reply, error);
    }
  });
}
