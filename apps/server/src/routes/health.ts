import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { replyNotReady } from '../http/reply-not-ready.ts';

/**
 * Liveness (the process answers) and readiness (warmed up, storage answers, the tree is loaded, not
 * shutting down).
 */
export function healthRoutes(app: FastifyInstance, { storage, registry, lifecycle, oprf, oprfNodes }: AppDeps) {
  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/healthz', async (request, reply) => {
    if (lifecycle.warmingUp) {
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ error: { code: 'WARMING_UP', message: 'This instance is still starting.' } });
    }
    if (lifecycle.draining) {
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: { code: 'SHUTTING_DOWN', message: 'This instance is shutting down.' } });
    }
    // Threshold mode: not ready until t nodes have published keys that fit the group key and the
    // database (decision 021). Afterwards a node outage shows per request (503 OPRF_UNAVAILABLE),
    // and here only as `degraded` with the nodes left out (decision 033), still 200: every instance
    // shares the nodes, so taking instances out of rotation would not help.
    if (!oprf && !oprfNodes?.current) {
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: { code: 'OPRF_NODES_UNAVAILABLE', message: 'Fewer OPRF nodes than the threshold have published their keys yet.' } });
    }
    try {
      await storage.ping();
      await registry.catchUp();
      const leftOut = (oprfNodes?.current?.nodes ?? []).flatMap(({ index, problem }) => (problem ? [{ index, problem }] : []));
      if (leftOut.length > 0) return { status: 'degraded', members: registry.size, root: registry.root, oprfNodes: { leftOut } };
      return { status: 'ready', members: registry.size, root: registry.root };
    } catch (error) {
      return replyNotReady(request, reply, error);
    }
  });
}
