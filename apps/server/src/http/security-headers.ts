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
  // The headers computed once, here. @fastify/helmet ran helmet(options) again for every request,
  // parsing every directive anew: about a quarter of a millisecond of each zero-knowledge
  // verification's CPU in decision 064's profile.
  const pairs = securityHeaderPairs({ https, connectOrigins: nodeOrigins(oprfNodes) });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of pairs) reply.raw.setHeader(name, value);
    done();
  });

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
  const pairs = securityHeaderPairs({ https });
  return (_request: FastifyRequest, reply: FastifyReply) => {
    for (const [name, value] of pairs) reply.raw.setHeader(name, value);
    reply.header('cache-control', 'no-store');
  };
}

/**
 * The headers as name–value pairs, as helmet sets them: the one place helmet runs, for the hook, a
 * reply outside routing and one written straight to the socket (`clientErrorReply`).
 */
export function securityHeaderPairs({
  https,
  connectOrigins = [],
}: {
  https: boolean;
  connectOrigins?: readonly string[];
}): Array<[string, string]> {
  const pairs = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => pairs.set(name, String(value)),
    removeHeader: (name: string) => pairs.delete(name),
  };
  helmet(helmetOptions(https, connectOrigins))({} as never, collector as never, () => undefined);
  return [...pairs];
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
