import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';

/**
 * Liveness (the process answers) and readiness (warmed up, storage answers, the tree is loaded, not
 * shutting down).
 */
export function healthRoutes(app: FastifyInstance, { storage, registry, lifecycle }: AppDeps) {
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
    try {
      await storage.ping();
      await registry.catchUp();
      return { status: 'ready', members: registry.size, root: registry.root };
    } catch (error) {
      request.log.warn({ err: { name: (error as Error).name, code: (error as { code?: string }).code } }, 'not ready');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: { code: 'NOT_READY', message: 'Storage is not reachable yet.' } });
    }
  });
}
