import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * The headers of DESIGN §6. The prover needs 'wasm-unsafe-eval' (snarkjs compiles the circuit's
 * WebAssembly) and blob: workers (snarkjs starts its curve workers from blob: URLs; without them a
 * proof never finishes). QR images are shown as data: URLs. Nothing is loaded from another host.
 */
export async function securityHeaders(app: FastifyInstance, { https }: { https: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  // API replies are personal answers to one request: never cache them. Static files set their own.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
