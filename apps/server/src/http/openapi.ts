import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';

/**
 * The OpenAPI 3.1 document, generated from the route schemas (themselves the TypeBox schemas of
 * `@zeroid/protocol`), so the reference can never drift from what the server validates.
 * Register before the routes: the plugin collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, { publicUrl }: { publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ZeroID API',
        version: '1.0.0',
        description:
          'Register an identity and prove membership with a Semaphore v4 zero-knowledge proof. The raw ID and biometric never need to leave the client.',
      },
      servers: [{ url: publicUrl }],
    },
    hideUntagged: false,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
