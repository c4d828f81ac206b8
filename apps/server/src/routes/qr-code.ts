import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { QrCodeQuery, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';

const png = (text: string) => QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });

/**
 * GET /generateQRCode: a PNG of the app's verification link, as the original system encoded it.
 * With `?session=…`, the link carries a pending cross-device session for a phone to complete.
 */
export function qrCodeRoute(app: FastifyInstance, { config, storage }: AppDeps) {
  const link = `${config.publicUrl}/user-verification`;
  let plain: Promise<Buffer> | undefined;
  app.get<{ Querystring: Static<typeof QrCodeQuery> }>(
    '/generateQRCode',
    { schema: { querystring: QrCodeQuery } },
    async (request, reply) => {
      const { session } = request.query;
      if (session === undefined) {
        plain ??= png(link);
        return reply
          .type('image/png')
          .header('cache-control', 'no-store')
          .send(await plain);
      }
      const found = await storage.sessions.find(session);
      if (found?.status !== 'pending') {
        return reply
          .code(404)
          .send({ error: { code: 'SESSION_NOT_FOUND', message: 'This verification session does not exist or is no longer open.' } });
      }
      return reply
        .type('image/png')
        .header('cache-control', 'no-store')
        .send(await png(`${link}?session=${session}`));
    },
  );
}
