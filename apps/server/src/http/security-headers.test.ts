import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { registeredRoutes } from '../../test/registered-routes.ts';
import { startTestApp, TEST_METRICS_TOKEN, type TestApp } from '../../test/test-app.ts';

/**
 * DESIGN §6's headers, route by route: every registered route is requested (with a good request and
 * with a bad one), and every reply, success or error, must carry them. A new route without an entry
 * here fails the completeness check.
 */
let t: TestApp;
let https: TestApp;
let sessionId: string;
let did: string;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_GLOBAL_PER_MINUTE: '100000' } });
  https = await startTestApp({ env: { PUBLIC_URL: 'https://id.example' } });
  sessionId = (await t.app.inject({ method: 'POST', url: '/sessions', remoteAddress: '203.0.113.50' })).json().session;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/register',
    payload: { id_info: 'headers id', bio_info: 'headers biometric' },
    remoteAddress: '203.0.113.51',
  });
  expect(registered.statusCode).toBe(200);
  did = (await t.storage.identities.findByCommitment((await t.storage.identities.commitmentsFrom(0))[0]!))!.did;
});
afterAll(async () => {
  await t?.destroy();
  await https?.destroy();
});

type Probe = { method: 'GET' | 'POST'; url: string; payload?: unknown; contentType?: string; authorization?: string };
const json = (url: string, payload: unknown): Probe => ({ method: 'POST', url, payload });

/** For each route: a request it serves, and requests it refuses. */
const probes = (): Record<string, Probe[]> => ({
  'post /register': [json('/register', { id_info: 'x' }), { method: 'POST', url: '/register', payload: 'id=1', contentType: 'text/plain' }],
  'post /verify': [json('/verify', { bio_info: 'unknown' }), json('/verify', { bio_info: 'x'.repeat(100_000) })],
  'get /erase/sign-in-scopes': [{ method: 'GET', url: '/erase/sign-in-scopes' }],
  'post /erase': [json('/erase', { id_info: 'unknown', bio_info: 'unknown' }), json('/erase', { commitment: '1' })],
  'get /generateQRCode': [
    { method: 'GET', url: '/generateQRCode' },
    { method: 'GET', url: '/generateQRCode?session=nope' },
  ],
  'get /oprf/public-key': [{ method: 'GET', url: '/oprf/public-key' }],
  'post /oprf': [json('/oprf', { blinded: 'AAAA' })],
  'post /oprf/admission': [json('/oprf/admission', { request: 'AAE' })],
  'post /challenge': [json('/challenge', {})],
  'post /reservations': [json('/reservations', { guesses: 2 }), json('/reservations', { guesses: 99 })],
  'post /reservations/release': [json('/reservations/release', { reservation: 'nope' })],
  'get /issuers': [{ method: 'GET', url: '/issuers' }],
  'get /credential-members': [
    { method: 'GET', url: '/credential-members' },
    { method: 'GET', url: '/credential-members?bucket=zz' },
  ],
  'get /members': [
    { method: 'GET', url: '/members' },
    { method: 'GET', url: '/members?bucket=zz' },
  ],
  'get /artifacts': [{ method: 'GET', url: '/artifacts' }],
  'get /artifacts/{name}': [
    { method: 'GET', url: '/artifacts/semaphore-1.wasm' },
    { method: 'GET', url: '/artifacts/semaphore-1.wasm?sha256=70289ef3bdfa86e97debdb227e76721b392f45b5e73d5e7136d93a04dce0dff9' },
    { method: 'GET', url: '/artifacts/nope' },
  ],
  'get /did/{did}': [
    { method: 'GET', url: `/did/${did}` },
    { method: 'GET', url: '/did/did:key:nope' },
  ],
  'get /healthz': [{ method: 'GET', url: '/healthz' }],
  'get /livez': [{ method: 'GET', url: '/livez' }],
  'post /sessions': [json('/sessions', {})],
  'get /sessions/{id}': [
    { method: 'GET', url: `/sessions/${sessionId}` },
    { method: 'GET', url: '/sessions/nope' },
  ],
  'get /sessions/{id}/open': [
    { method: 'GET', url: `/sessions/${sessionId}/open` },
    { method: 'GET', url: '/sessions/nope/open' },
  ],
  'post /sessions/{id}/failure': [
    { method: 'POST', url: '/sessions/nope/failure' },
    { method: 'POST', url: `/sessions/${sessionId}/failure` },
  ],
  'get /sessions/{id}/events': [{ method: 'GET', url: '/sessions/nope/events' }],
  'get /openapi.json': [{ method: 'GET', url: '/openapi.json' }],
  'get /docs': [{ method: 'GET', url: '/docs' }],
  'get /docs/': [{ method: 'GET', url: '/docs/' }],
  'get /docs/*': [{ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' }],
  'get /docs/static/index.html': [{ method: 'GET', url: '/docs/static/index.html' }],
  'get /docs/static/swagger-initializer.js': [{ method: 'GET', url: '/docs/static/swagger-initializer.js' }],
  'get /docs/static/theme/zeroid.css': [{ method: 'GET', url: '/docs/static/theme/zeroid.css' }],
  'get /docs/json': [{ method: 'GET', url: '/docs/json' }],
  'get /docs/yaml': [{ method: 'GET', url: '/docs/yaml' }],
  'get /api-docs': [{ method: 'GET', url: '/api-docs' }],
  'get /docs/sign-in-with-zeroid': [{ method: 'GET', url: '/docs/sign-in-with-zeroid' }],
  'get /docs/sign-in-with-zeroid/guide.css': [{ method: 'GET', url: '/docs/sign-in-with-zeroid/guide.css' }],
  'get /metrics': [
    { method: 'GET', url: '/metrics', authorization: `Bearer ${TEST_METRICS_TOKEN}` },
    { method: 'GET', url: '/metrics' },
  ],
  // Sign in with ZeroID (decision 023): the OpenID provider and the sign-in screen's calls.
  'get /.well-known/openid-configuration': [{ method: 'GET', url: '/.well-known/openid-configuration' }],
  'get /oidc/jwks': [{ method: 'GET', url: '/oidc/jwks' }],
  'get /oidc/auth': [{ method: 'GET', url: '/oidc/auth?client_id=nope' }],
  'post /oidc/auth': [
    { method: 'POST', url: '/oidc/auth', payload: 'client_id=nope', contentType: 'application/x-www-form-urlencoded' },
    json('/oidc/auth', {}),
  ],
  'get /oidc/auth/{uid}': [{ method: 'GET', url: '/oidc/auth/nope' }],
  'post /oidc/token': [
    json('/oidc/token', {}),
    { method: 'POST', url: '/oidc/token', payload: 'grant_type=x', contentType: 'application/x-www-form-urlencoded' },
  ],
  'get /oidc/me': [{ method: 'GET', url: '/oidc/me' }],
  'post /oidc/me': [{ method: 'POST', url: '/oidc/me', payload: 'access_token=nope', contentType: 'application/x-www-form-urlencoded' }],
  'get /signin/{uid}/details': [{ method: 'GET', url: '/signin/nope/details' }],
  'post /signin/{uid}/proof': [json('/signin/nope/proof', {})],
  'post /signin/{uid}/cancel': [{ method: 'POST', url: '/signin/nope/cancel' }],
  'post /signin/{uid}/failure': [{ method: 'POST', url: '/signin/nope/failure' }],
  // On a phone (decision 029): the screen's calls need its cookie, the phone's a sign-in session.
  'post /signin/{uid}/sessions': [{ method: 'POST', url: '/signin/nope/sessions' }],
  'post /signin/{uid}/sessions/{id}/finish': [json(`/signin/nope/sessions/${'0'.repeat(32)}/finish`, {})],
  'post /sessions/{id}/confirm': [json(`/sessions/${sessionId}/confirm`, { code: '123456' }), json('/sessions/nope/confirm', {})],
  'get /oidc/session/end': [{ method: 'GET', url: '/oidc/session/end?client_id=nope' }],
  'post /oidc/session/end': [
    { method: 'POST', url: '/oidc/session/end', payload: 'client_id=nope', contentType: 'application/x-www-form-urlencoded' },
  ],
  'post /oidc/session/end/confirm': [
    { method: 'POST', url: '/oidc/session/end/confirm', payload: 'xsrf=nope', contentType: 'application/x-www-form-urlencoded' },
  ],
  'get /oidc/session/end/success': [{ method: 'GET', url: '/oidc/session/end/success' }],
  'get /sessions/{id}/sign-in': [
    { method: 'GET', url: `/sessions/${sessionId}/sign-in` },
    { method: 'GET', url: '/sessions/nope/sign-in' },
  ],
  'post /sessions/{id}/sign-in': [json(`/sessions/${sessionId}/sign-in`, {})],
  unmatched: [{ method: 'GET', url: '/no/such/path' }],
  // Refused before routing (Fastify's frameworkErrors), where no hook runs.
  'malformed URL': [
    { method: 'GET', url: '/%zz' },
    { method: 'GET', url: '/sessions/%E0%A4%A' },
    { method: 'GET', url: `/did/${'z'.repeat(200)}` },
    json('/register%zz', {}),
  ],
});

const send = (app: TestApp, probe: Probe, remoteAddress = '203.0.113.60') =>
  app.app.inject({
    method: probe.method,
    url: probe.url,
    remoteAddress,
    headers: {
      origin: 'https://elsewhere.example',
      ...(probe.authorization === undefined ? {} : { authorization: probe.authorization }),
      ...(probe.payload === undefined ? {} : { 'content-type': probe.contentType ?? 'application/json' }),
    },
    ...(probe.payload === undefined ? {} : { payload: typeof probe.payload === 'string' ? probe.payload : JSON.stringify(probe.payload) }),
  });

/**
 * Sign in with ZeroID (decision 023): OpenID discovery and the JWKS are public metadata that browser
 * clients read, so CORS is open there on purpose; on the token and userinfo endpoints oidc-provider
 * decides CORS itself, per client (the origins of its redirect URIs).
 */
const PUBLIC_METADATA = /^get \/(\.well-known\/openid-configuration|oidc\/jwks) /;
const PROVIDER_CORS = /^(post \/oidc\/token|get \/oidc\/me|post \/oidc\/me) /;

function expectDesignHeaders(reply: LightMyRequestResponse, where: string) {
  const csp = String(reply.headers['content-security-policy']);
  for (const directive of [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]) {
    expect(csp, `${where}: CSP has ${directive}`).toContain(directive);
  }
  expect(reply.headers['x-content-type-options'], where).toBe('nosniff');
  expect(reply.headers['referrer-policy'], where).toBe('no-referrer');
  if (PUBLIC_METADATA.test(where)) expect(reply.headers['access-control-allow-origin'], where).toBe('https://elsewhere.example');
  else if (!PROVIDER_CORS.test(where)) expect(reply.headers['access-control-allow-origin'], `${where}: CORS stays closed`).toBeUndefined();
}

describe('security headers on every route', () => {
  it('has a probe for every registered route', () => {
    const covered = Object.keys(probes());
    expect(registeredRoutes(t.app, t.config.webDist).filter((route) => !covered.includes(route))).toEqual([]);
  });

  it('sends them on every reply, success or error, and no-store on every API reply but the public metadata', async () => {
    const statuses = new Set<number>();
    for (const [route, list] of Object.entries(probes())) {
      for (const probe of list) {
        const reply = await send(t, probe);
        const where = `${route} → ${probe.method} ${probe.url.slice(0, 60)} (${reply.statusCode})`;
        statuses.add(reply.statusCode);
        expect(reply.statusCode, where).toBeLessThan(500);
        expectDesignHeaders(reply, where);
        expect(reply.headers['strict-transport-security'], `${where}: no HSTS over plain HTTP`).toBeUndefined();
        const cache = String(reply.headers['cache-control']);
        // Swagger UI's own files (decision 044) are public and revalidated.
        if (route === 'get /docs/*' && reply.statusCode === 200) expect(cache, where).toBe('public, max-age=0');
        // Artifacts are public: kept for good when their checksum is in the URL, revalidated otherwise.
        else if (route.startsWith('get /artifacts') && reply.statusCode === 200) {
          expect(cache, where).toBe(probe.url.includes('sha256=') ? 'public, max-age=31536000, immutable' : 'public, no-cache');
        }
        // Discovery and the JWKS may be cached (decision 037), for less time than a new key waits to sign.
        else if (PUBLIC_METADATA.test(where) && reply.statusCode === 200) expect(cache, where).toMatch(/^public, max-age=(60|300)$/);
        else expect(cache, where).toBe('no-store');
      }
    }
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400, 401, 404, 413, 414, 415]));
  });

  it('sends them on 429s too', async () => {
    const limited = [];
    for (let i = 0; i < 3; i++) limited.push(await send(t, json('/verify', { bio_info: 'rate limited' }), '203.0.113.99'));
    expect(limited.at(-1)!.statusCode).toBe(429);
    expectDesignHeaders(limited.at(-1)!, '429');
    expect(limited.at(-1)!.headers['retry-after']).toBeDefined();
  });

  it('adds HSTS when the public URL is HTTPS', async () => {
    for (const probe of [
      { method: 'GET', url: '/healthz' },
      json('/verify', { bio_info: 'x' }),
      { method: 'GET', url: '/nope' },
      { method: 'GET', url: '/%zz' },
    ] as Probe[]) {
      const reply = await send(https, probe);
      expectDesignHeaders(reply, probe.url);
      expect(reply.headers['strict-transport-security'], probe.url).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
