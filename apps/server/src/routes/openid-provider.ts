import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { RouteDeps } from '../route-use-cases.ts';
import { formAsQuery } from '../http/form-as-query.ts';
import { hijackWithHeaders } from '../http/hijack-with-headers.ts';
import { perClientLimited } from '../http/per-client-limit.ts';
import { Problem } from '../problem.ts';
import { currentProvider } from '../openid/current-provider.ts';
import { DISCOVERY_PATH, JWKS_PATH, OIDC_PREFIX } from '../openid/paths.ts';

/** Any one parameter of an authorization or logout request: far above a state, nonce or id_token_hint of a real site. */
export const MAX_PARAMETER_CHARS = 1024;
/** The whole request: the URL with its query, or a form body. */
export const MAX_REQUEST_CHARS = 4096;

/**
 * The requests that store something before the person has done anything (an authorization
 * request stores its interaction; a logout request its state) are refused when large (decision
 * 037): the interaction's row is then a few kilobytes at most, whoever sends it.
 */
async function refuseLargeRequests(request: FastifyRequest) {
  const tooLarge = () =>
    new Problem(
      413,
      'SIGN_IN_REQUEST_TOO_LARGE',
      `This sign-in request is too large: at most ${MAX_PARAMETER_CHARS} characters a parameter, ${MAX_REQUEST_CHARS} in all.`,
    );
  if (request.raw.url!.length > MAX_REQUEST_CHARS || Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_CHARS) {
    throw tooLarge();
  }
  const query = new URL(request.raw.url!, 'http://localhost').searchParams;
  for (const value of query.values()) if (value.length > MAX_PARAMETER_CHARS) throw tooLarge();
}

/**
 * Every URL the provider writes (its endpoints, the redirect after a proof) is on PUBLIC_URL, the
 * issuer, whatever Host the request came with; secure cookies follow PUBLIC_URL's scheme.
 */
export function asIssuer(publicUrl: string) {
  const issuer = new URL(publicUrl);
  return (request: FastifyRequest) => {
    request.raw.headers['x-forwarded-host'] = issuer.host;
    request.raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
  };
}

/**
 * The OpenID provider (oidc-provider, decision 023) at `/.well-known/openid-configuration` and under
 * `/oidc`: only the endpoints it has switched on. It is a Koa application: its requests leave
 * Fastify before the body is read, with the headers Fastify's hooks set so far (security headers,
 * CORS). The authorization endpoint, where it resumes after the proof, and the logout endpoints are
 * limited per client and refuse large requests (decision 037); the token, JWKS, discovery and
 * userinfo endpoints serve sites' servers, many people behind one address, and store nothing a
 * stranger can send.
 */
export function openidProviderRoutes(app: FastifyInstance, { config, limits, openidProvider }: RouteDeps) {
  const setIssuer = asIssuer(config.publicUrl);
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();

  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    const current = await currentProvider(openidProvider, request.log);
    let callback = callbacks.get(current);
    if (!callback) callbacks.set(current, (callback = current.callback()));
    hijackWithHeaders(reply);
    setIssuer(request);
    // Its own replies say how long they may be kept (discovery, JWKS); everything else is never cached.
    reply.raw.setHeader('cache-control', 'no-store');
    await callback(request.raw, reply.raw);
  };
  const mounted = { onRequest: handOver, handler: async () => undefined, schema: { hide: true } };
  /**
   * Each kind of call has a per-client minute of its own: a burst of authorization requests from
   * a person's address must not leave them a raw 429 where they come back after their proof.
   */
  const limited = () => {
    const perClient = perClientLimited(limits).onRequest as ((request: FastifyRequest) => Promise<void>) | undefined;
    return perClient ? [perClient] : [];
  };
  const guarded = (limit = limited()) => ({ ...mounted, onRequest: [...limit, refuseLargeRequests, handOver] });
  // A POSTed authorization or logout request is read as its GET (decision 047), then checked alike.
  const posted = (limit = limited()) => ({
    ...mounted,
    onRequest: [...limit, formAsQuery(MAX_REQUEST_CHARS), refuseLargeRequests, handOver],
  });
  const authorization = limited();
  const resume = limited();
  // `/oidc/auth/` with no uid is an authorization request to the provider, and counts as one: a minute of its
  // own would double a client's (decision 071).
  const resumeOrAuthorization = async (request: FastifyRequest) => {
    const [limit] = (request.params as { uid?: string }).uid ? resume : authorization;
    await limit?.(request);
  };

  app.route({ method: 'GET', url: DISCOVERY_PATH, ...mounted });
  app.route({ method: ['GET', 'POST'], url: `${OIDC_PREFIX}/auth`, ...posted(authorization) });
  app.route({ method: 'GET', url: `${OIDC_PREFIX}/auth/:uid`, ...guarded([resumeOrAuthorization]) });
  app.route({ method: 'POST', url: `${OIDC_PREFIX}/token`, ...mounted });
  app.route({ method: 'GET', url: JWKS_PATH, ...mounted });
  app.route({ method: ['GET', 'POST'], url: `${OIDC_PREFIX}/me`, ...mounted });
  // RP-Initiated Logout 1.0 (decision 036): the request, its confirmation and the page after it.
  app.route({ method: ['GET', 'POST'], url: `${OIDC_PREFIX}/session/end`, ...posted() });
  app.route({ method: 'POST', url: `${OIDC_PREFIX}/session/end/confirm`, ...guarded() });
  app.route({ method: 'GET', url: `${OIDC_PREFIX}/session/end/success`, ...guarded() });
}
