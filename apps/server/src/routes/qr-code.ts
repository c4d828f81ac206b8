import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { AppDeps } from '../app.ts';

/** GET /generateQRCode: a PNG of the app's verification link, as the original system encoded it. */
export function qrCodeRoute(app: FastifyInstance, { config }: AppDeps) {
  const link = `${config.publicUrl}/user-verification`;
  let png: Promise<Buffer> | undefined;
  app.get('/generateQRCode', async (_request, reply) => {
    png ??= QRCode.toBuffer(link, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
    return reply
      .type('image/png')
      .header('cache-control', 'no-store')
      .send(await png);
  });
}
