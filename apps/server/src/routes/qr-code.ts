import type { FastifyInstance } from 'fastify';
import { qrCodeGuide } from './qr-code.openapi.ts';
import { QrCodeQuery } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { perClientLimited } from '../http/per-client-limit.ts';
import { replyProblem } from '../http/reply-problem.ts';
import { sessionNotFound } from '../problem.ts';
import { renderQrPng } from '../sessions/session-qr-images.ts';
import { typed } from '../http/typed-app.ts';

/**
 * GET /generateQRCode: a PNG of the app's verification link, as the original system encoded it.
 * With `?session=…`, the link carries a pending cross-device session for a phone to complete. Images
 * are drawn once (the plain one at start-up, a session's on first request) and the route is
 * rate-limited per client, so a flood of requests draws nothing.
 */
export function qrCodeRoute(app: FastifyInstance, deps: RouteDeps) {
  const { config, limits } = deps;
  const api = typed(app);
  const link = `${config.publicUrl}/user-verification`;
  let plain: Promise<Buffer> | undefined;
  api.get(
    '/generateQRCode',
    { ...perClientLimited(limits), schema: { 'x-guide': qrCodeGuide, querystring: QrCodeQuery } },
    async (request, reply) => {
      const { session } = request.query;
      if (session === undefined) {
        plain ??= renderQrPng(link);
        return reply
          .type('image/png')
          .header('cache-control', 'no-store')
          .send(await plain);
      }
      const image = await deps.useCases.pendingSessionQr(session);
      if (image === undefined) {
        return replyProblem(reply, sessionNotFound('pending'));
      }
      return reply.type('image/png').header('cache-control', 'no-store').send(image);
    },
  );
}
