import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';

/**
 * GET /artifacts/semaphore-<depth>.(wasm|zkey|json): the pinned proving artifacts and verification
 * keys, served by us so the browser fetches nothing from another host. Content never changes for a
 * name, so it is immutable.
 */
export function artifactRoutes(app: FastifyInstance, { artifacts }: AppDeps) {
  app.get<{ Params: { name: string } }>('/artifacts/:name', async (request, reply) => {
    const artifact = artifacts.get(request.params.name);
    if (!artifact) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such proving artifact.' } });
    }
    const etag = `"${artifact.sha256}"`;
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag).header('x-content-sha256', artifact.sha256);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply
      .type(
        artifact.name.endsWith('.wasm')
          ? 'application/wasm'
          : artifact.name.endsWith('.json')
            ? 'application/json'
            : 'application/octet-stream',
      )
      .header('content-length', artifact.bytes)
      .send(createReadStream(artifact.path));
  });
}
