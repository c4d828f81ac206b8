import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * The headers of DESIGN §6. The prover needs 'wasm-unsafe-eval' (snarkjs compiles the circuit's
 * WebAssembly) and blob: workers (snarkjs starts its curve workers from blob: URLs; without them a
 * proof never finishes). QR images are shown as data: URLs. Nothing is loaded from another host; in
 * threshold mode (decision 021) the prover also calls the OPRF nodes, so `connect-src` names exactly
 * their origins.
 */
export function securityHeaders(app: FastifyInstance, { https, oprfNodes = [] }: { https: boolean; oprfNodes?: readonly string[] }) {
  // Helmet's middleware built once, here. @fastify/helmet built it again for every request (its
  // onRequest hook calls helmet(options), which parses every directive anew): about a quarter of a
  // millisecond of each zero-knowledge verification's CPU in decision 064's profile.
  const apply = helmet(helmetOptions(https, nodeOrigins(oprfNodes)));
  app.addHook('onRequest', (request, reply, done) => apply(request.raw, reply.raw, () => done()));

  // API replies are personal answers to one request: never cache them. Static files set their own.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/**
 * The same headers for a reply that never went through routing, and so through no hook: a URL that
 * does not decode (Fastify's frameworkErrors). `securityHeaders` covers every other reply.
 */
export function securityHeadersOutsideRouting({ https }: { https: boolean }) {
  const apply = helmet(helmetOptions(https));
  return (request: FastifyRequest, reply: FastifyReply) => {
    apply(request.raw, reply.raw, () => undefined);
    reply.header('cache-control', 'no-store');
  };
}

/**
 * The same headers as name–value pairs, for a reply written straight to the socket: one Node's HTTP
 * parser refused before Fastify saw a request (`clientErrorHandler`).
 */
export function securityHeaderPairs({ https }: { https: boolean }): Array<[string, string]> {
  const pairs = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => pairs.set(name, String(value)),
    removeHeader: (name: string) => pairs.delete(name),
  };
  helmet(helmetOptions(https))({} as never, collector as never, () => undefined);
  return [...pairs, ['Cache-Control', 'no-store']];
}

/** The origins of the OPRF nodes' URLs, each once: CSP sources are origins (a path would narrow them). */
export function nodeOrigins(urls: readonly string[]): string[] {
  return [...new Set(urls.map((url) => new URL(url).origin))];
}

function helmetOptions(https: boolean, connectOrigins: readonly string[] = []) {
  return {
    contentSecurityPolicy: {
      useDefaults: false as const,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", ...connectOrigins],
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
    referrerPolicy: { policy: 'no-referrer' as const },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}
