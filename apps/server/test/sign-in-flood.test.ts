import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type RunningPostgres } from './embedded-postgres.ts';
import { everyRow, type DatabaseAt } from './every-row.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { addPublicClient } from './sign-in-journey.ts';

/**
 * Interactions cost the caller, not the service (issue 25, decision 037): the authorization
 * request, which stores an interaction for anyone who knows a public client_id and redirect URI, is
 * limited per client and refuses large parameters; expired records are purged on schedule; and a
 * database that is full anyway (SQLITE_MAX_SIZE_MB here) answers a clear 503, never a 500, and serves
 * again by itself once the purge has made room. Real server processes, on SQLite and PostgreSQL.
 */
const REDIRECT = 'http://localhost:3031/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** An authorization request as any page can send it: a public client, its redirect URI, and a long state. */
const authorize = (
  server: string,
  { state = 's'.repeat(1000), from, extra = {} }: { state?: string; from?: string; extra?: Record<string, string> } = {},
) => {
  const url = new URL(`${server}/oidc/auth`);
  url.search = new URLSearchParams({
    client_id: 'flooded-site',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid',
    state,
    nonce: 'n'.repeat(1000),
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return fetch(url, { redirect: 'manual', headers: from ? { 'x-forwarded-for': from } : {} });
};
const interactions = async (at: DatabaseAt) => (await everyRow(at)).filter((row) => row.table === 'oidc_models').length;

describe.each(['sqlite', 'postgres'] as const)('a flood of authorization requests, on %s', (dialect) => {
  let postgres: RunningPostgres | undefined;
  let dataDir: string;
  let limited: ServerProcess;
  let database: DatabaseAt;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), `zeroid-flood-${dialect}-`));
    let env: Record<string, string> = { DATA_DIR: dataDir };
    database = { dataDir };
    if (dialect === 'postgres') {
      postgres = await startEmbeddedPostgres();
      const { privateKey } = await generateOprfKeyPair();
      env = { ...env, DATABASE_URL: postgres.url, OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url') };
      database = { databaseUrl: postgres.url };
    }
    // The default per-client limit, and the client's address from a proxy we trust (the test).
    limited = await startServerProcess({ ...env, RATE_LIMIT_PER_MINUTE: '60', TRUST_PROXY: 'true' });
    await addPublicClient({ dataDir, databaseUrl: env.DATABASE_URL }, 'flooded-site', REDIRECT);
  }, 120_000);

  afterAll(async () => {
    await limited?.stop();
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores at most the per-client limit of interactions for one address, refuses large parameters, and serves every other address', async () => {
    const before = await interactions(database);
    // 200 at once from one address: 60 are served, the rest refused with a Retry-After, each after a pause.
    const statuses = await Promise.all(Array.from({ length: 200 }, () => authorize(limited.url, { from: '198.51.100.7' })));
    const counts = Object.fromEntries([303, 429].map((status) => [status, statuses.filter((r) => r.status === status).length]));
    expect(counts).toEqual({ 303: 60, 429: 140 });
    expect(Number(statuses.find((r) => r.status === 429)!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await interactions(database)) - before).toBe(60);

    // Another address is served meanwhile, and reaches the sign-in screen.
    const other = await authorize(limited.url, { from: '198.51.100.8' });
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toMatch(/^\/signin\/[A-Za-z0-9_-]+$/);

    // A parameter over 1,024 characters, or a request over 4,096: refused before anything is stored.
    const stored = await interactions(database);
    const padding = Object.fromEntries(['ui_locales', 'login_hint', 'acr_values'].map((name) => [name, 'p'.repeat(1000)]));
    const tooLarge = [
      await authorize(limited.url, { state: 'x'.repeat(1025), from: '198.51.100.9' }),
      await authorize(limited.url, { extra: padding, from: '198.51.100.9' }),
    ];
    for (const reply of tooLarge) {
      expect(reply.status).toBe(413);
      expect(await reply.json()).toMatchObject({ error: { code: 'SIGN_IN_REQUEST_TOO_LARGE' } });
    }
    expect(await interactions(database)).toBe(stored);

    // The sign-in screen's calls are limited per client too.
    const finishes = await Promise.all(
      Array.from({ length: 70 }, () =>
        fetch(`${limited.url}/signin/some-sign-in/sessions/${'0'.repeat(32)}/finish`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.10', 'session-secret': 'x' },
          body: '{}',
        }),
      ),
    );
    expect(finishes.filter((r) => r.status === 429)).toHaveLength(10);
    expect(finishes.filter((r) => r.status === 404)).toHaveLength(60);
  }, 60_000);
});

describe('a database that is full', () => {
  let dataDir: string;
  let capped: ServerProcess;
  const CAP_MB = 0.5;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-full-'));
    const env = { DATA_DIR: dataDir };
    // No per-client limit, a small file, sign-ins that wait five seconds, a purge every second.
    capped = await startServerProcess({
      ...env,
      SQLITE_MAX_SIZE_MB: String(CAP_MB),
      SIGN_IN_TTL_SECONDS: '5',
      PURGE_INTERVAL_SECONDS: '1',
    });
    await addPublicClient({ dataDir }, 'flooded-site', REDIRECT);
  }, 120_000);

  afterAll(async () => {
    await capped?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a clear 503 with Retry-After, never a 500, and serves again by itself once the scheduled purge has made room', async () => {
    const statuses: number[] = [];
    let full: Response | undefined;
    for (let batch = 0; batch < 100 && !full; batch++) {
      const replies = await Promise.all(Array.from({ length: 20 }, () => authorize(capped.url)));
      statuses.push(...replies.map((r) => r.status));
      full = replies.find((r) => r.status === 503);
    }
    expect([...new Set(statuses)].sort()).toEqual([303, 503]);
    expect(full!.headers.get('retry-after')).toBe('5');
    expect(full!.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await full!.text();
    expect(page).toContain('temporarily_unavailable');
    expect(page).toContain('Nothing was saved; please try again in a moment.');
    expect(statSync(path.join(dataDir, 'zeroid.sqlite')).size).toBeLessThanOrEqual(CAP_MB * 1024 * 1024);

    // No one deletes anything by hand: the interactions expire after five seconds, the purge runs
    // every second, and authorization requests are served again.
    let recovered: number | undefined;
    for (let tries = 0; tries < 60 && recovered !== 303; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      recovered = (await authorize(capped.url)).status;
      expect([303, 503]).toContain(recovered);
    }
    expect(recovered).toBe(303);
  }, 90_000);
});
