import { expect } from 'vitest';
import { everyRow, type DatabaseAt } from './every-row.ts';

/** The client every flood test registers (public), and its redirect URI. */
export const FLOODED_CLIENT = { id: 'flooded-site', redirectUri: 'http://localhost:3031/callback' };
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** An authorization request as any page can send it: a public client, its redirect URI, and a long state. */
export function authorize(server: string, { state, from, extra }: { state?: string; from?: string; extra?: Record<string, string> } = {}) {
  return fetch(authorizationUrl(server, { state, extra }), { redirect: 'manual', headers: from ? { 'x-forwarded-for': from } : {} });
}

/** The URL of such a request. */
export function authorizationUrl(
  server: string,
  { state = 's'.repeat(1000), extra = {} }: { state?: string; extra?: Record<string, string> } = {},
) {
  const url = new URL(`${server}/oidc/auth`);
  url.search = new URLSearchParams({
    client_id: FLOODED_CLIENT.id,
    redirect_uri: FLOODED_CLIENT.redirectUri,
    response_type: 'code',
    scope: 'openid',
    state,
    nonce: 'n'.repeat(1000),
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url.href;
}

const providerRecords = async (at: DatabaseAt) => (await everyRow(at)).filter((row) => row.table === 'oidc_models').length;

/**
 * The authorization flood of decision 037, against a server that takes the default per-client limit (60 a minute) and the
 * client's address from X-Forwarded-For (TRUST_PROXY): 200 authorization requests at once from one
 * address store exactly 60 interactions and are otherwise refused with a Retry-After; another address
 * is served; a parameter over 1,024 characters or a request over 4,096 is refused and stores nothing;
 * the sign-in screen's calls are limited too. `network` picks the test's addresses (one flood per network).
 */
export async function floodFromOneAddress(server: string, database: DatabaseAt, network: string): Promise<void> {
  const before = await providerRecords(database);
  const statuses = await Promise.all(Array.from({ length: 200 }, () => authorize(server, { from: `${network}.7` })));
  const counts = Object.fromEntries([303, 429].map((status) => [status, statuses.filter((r) => r.status === status).length]));
  expect(counts).toEqual({ 303: 60, 429: 140 });
  expect(Number(statuses.find((r) => r.status === 429)!.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await providerRecords(database)) - before).toBe(60);

  // The flooded address still has the resume's own allowance: a person behind it who has just proved
  // is not left with a 429 where they come back (the provider answers an unknown sign-in itself).
  const resume = await fetch(`${server}/oidc/auth/no-such-sign-in`, { redirect: 'manual', headers: { 'x-forwarded-for': `${network}.7` } });
  expect(resume.status).toBe(400);
  // `/oidc/auth/` is an authorization request to the provider too, and is refused with the flood.
  const slashed = authorizationUrl(server).replace('/oidc/auth?', '/oidc/auth/?');
  const again = await fetch(slashed, { redirect: 'manual', headers: { 'x-forwarded-for': `${network}.7` } });
  expect(again.status).toBe(429);

  // Another address is served meanwhile, and reaches the sign-in screen.
  const other = await authorize(server, { from: `${network}.8` });
  expect(other.status).toBe(303);
  expect(other.headers.get('location')).toMatch(/^\/signin\/[A-Za-z0-9_-]+$/);

  // A parameter over 1,024 characters, or a request over 4,096: refused before anything is stored.
  const stored = await providerRecords(database);
  const padding = Object.fromEntries(['ui_locales', 'login_hint', 'acr_values'].map((name) => [name, 'p'.repeat(1000)]));
  const tooLarge = [
    await authorize(server, { state: 'x'.repeat(1025), from: `${network}.9` }),
    await authorize(server, { extra: padding, from: `${network}.9` }),
  ];
  for (const reply of tooLarge) {
    expect(reply.status).toBe(413);
    expect(await reply.json()).toMatchObject({ error: { code: 'SIGN_IN_REQUEST_TOO_LARGE' } });
  }
  expect(await providerRecords(database)).toBe(stored);

  // The sign-in screen's calls are limited per client too.
  const finishes = await Promise.all(
    Array.from({ length: 70 }, () =>
      fetch(`${server}/signin/some-sign-in/sessions/${'0'.repeat(32)}/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `${network}.10`, 'session-secret': 'x' },
        body: '{}',
      }),
    ),
  );
  expect(finishes.filter((r) => r.status === 429)).toHaveLength(10);
  expect(finishes.filter((r) => r.status === 404)).toHaveLength(60);
}
