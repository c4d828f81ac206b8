import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Problem } from '../problem.ts';
import { replyProblem } from './reply-problem.ts';

/**
 * Serves the built web app, brotli- or gzip-compressed where the client accepts it. Hashed assets are
 * immutable; index.html is revalidated. Any other GET
 * that asks for HTML gets index.html, so the router's paths (/register, /user-verification…) load the
 * app; API paths and everything else get a JSON 404.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string) {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies beside each file (decision 043): sent as Accept-Encoding allows.
      preCompressed: true,
      // Ours, from setHeaders: left on, send's own "public, max-age=0" would replace it.
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const wantsHtml = (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
    if (wantsHtml && hasBuild) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    return replyProblem(reply, new Problem(404, 'NOT_FOUND', 'There is nothing at this address.'));
  });
}
