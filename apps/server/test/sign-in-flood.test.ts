import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationUrl, authorize, FLOODED_CLIENT, floodFromOneAddress } from './authorization-flood.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { blindOprfInput, normaliseInput, type OprfKeyReply } from '@zeroid/protocol';
import { addPublicClient, Browser } from './sign-in-journey.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';

/**
 * Interactions cost the caller, not the service (decision 037): the authorization
 * request, which stores an interaction for anyone who knows a public client_id and redirect URI, is
 * limited per client and refuses large parameters; expired records are purged on schedule; and a
 * database that is full anyway (SQLITE_MAX_SIZE_MB here) answers a clear 503, never a 500, and serves
 * again by itself once the purge has made room. One real server process on SQLite with the default
 * limits; the same flood on PostgreSQL is in sign-in-many-sites.test.ts.
 */
const CAP_MB = 0.5;
let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = tempDir('zeroid-flood-');
  // The default per-client limit, the client's address from a proxy we trust (the test), a small
  // file, sign-ins that wait fifteen seconds, and a purge every second.
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '60',
      TRUST_PROXY: 'true',
      SQLITE_MAX_SIZE_MB: String(CAP_MB),
      SIGN_IN_TTL_SECONDS: '15',
      PURGE_INTERVAL_SECONDS: '1',
    },
    // A shared 2-core machine can take over a minute to start the server (tsx compiling it).
    { readyTimeoutMs: 110_000 },
  );
  await addPublicClient({ dataDir }, FLOODED_CLIENT.id, FLOODED_CLIENT.redirectUri);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

describe('a flood of authorization requests, on SQLite', () => {
  it('stores at most the per-client limit of interactions for one address, refuses large parameters, and serves every other address', async () => {
    await floodFromOneAddress(server.url, { dataDir }, '198.51.100');
  }, 60_000);

  it('answers a full database with a clear 503 and Retry-After, never a 500, and serves again by itself once the scheduled purge has made room', async () => {
    // Twenty requests from each of many addresses, until the file is full.
    const statuses: number[] = [];
    let full: Response | undefined;
    for (let batch = 0; batch < 100 && !full; batch++) {
      const replies = await Promise.all(Array.from({ length: 20 }, () => authorize(server.url, { from: `203.0.113.${batch}` })));
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

    // No one deletes anything by hand: the interactions expire after fifteen seconds, the purge runs
    // every second, and authorization requests are served again.
    let recovered: number | undefined;
    for (let tries = 0; tries < 60 && recovered !== 303; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      recovered = (await authorize(server.url, { from: `192.0.2.${tries}` })).status;
      expect([303, 503]).toContain(recovered);
    }
    expect(recovered).toBe(303);
  }, 120_000);
});

describe('tries on the sign-in screen (decision 051)', () => {
  it("counts every try as a failed verification of the client: five are answered with another try, the sixth waits with Retry-After, as does the client's next OPRF evaluation; the sign-in still waits, and Cancel answers the site", async () => {
    const from = { 'x-forwarded-for': '198.51.100.77' };
    const browser = new Browser();
    // The test before filled the file and saw it serve once again; the purge may still be making room
    // (a 503 with Retry-After), so the sign-in starts once the server says it can.
    let start = await browser.fetch(authorizationUrl(server.url, { state: 'tries' }), { headers: from });
    for (let tries = 0; tries < 30 && start.status === 503; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      start = await browser.fetch(authorizationUrl(server.url, { state: 'tries' }), { headers: from });
    }
    expect(start.status).toBe(303);
    const uid = /^\/signin\/([A-Za-z0-9_-]+)$/.exec(new URL(start.headers.get('location') ?? '', server.url).pathname)?.[1];
    expect(uid).toBeDefined();
    const report = () => browser.fetch(`${server.url}/signin/${uid}/failure`, { method: 'POST', headers: from });

    const challenges = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const again = await report();
      expect(again.status).toBe(200);
      const { result, challenge } = (await again.json()) as { result: string; challenge: string };
      expect(result).toBe('Failure');
      challenges.add(challenge);
    }
    expect(challenges.size).toBe(5);
    const sixth = await report();
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toMatchObject({ error: { code: 'TOO_MANY_FAILURES' } });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);

    // The same client's next guess waits too, whatever the route.
    const { publicKey } = (await (await fetch(`${server.url}/oprf/public-key`)).json()) as OprfKeyReply;
    const { request } = await blindOprfInput(Buffer.from(publicKey, 'base64url'), 'bio', normaliseInput('another guess'));
    const oprf = await fetch(`${server.url}/oprf`, {
      method: 'POST',
      headers: { ...from, 'content-type': 'application/json' },
      body: JSON.stringify({ element: Buffer.from(request).toString('base64url') }),
    });
    expect(oprf.status).toBe(429);
    expect(await oprf.json()).toMatchObject({ error: { code: 'TOO_MANY_FAILURES' } });

    // The sign-in itself still waits: the screen may sit the wait out, or give up with Cancel.
    expect((await browser.fetch(`${server.url}/signin/${uid}/details`, { headers: from })).status).toBe(200);
    const cancel = await browser.fetch(`${server.url}/signin/${uid}/cancel`, { method: 'POST', headers: from });
    const { redirectTo } = (await cancel.json()) as { redirectTo: string };
    const back = new URL((await browser.fetch(redirectTo, { headers: from })).headers.get('location')!);
    expect(back.origin + back.pathname).toBe(FLOODED_CLIENT.redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
  }, 60_000);
});
