import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, FLOODED_CLIENT, floodFromOneAddress } from './authorization-flood.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { addPublicClient } from './sign-in-journey.ts';

/**
 * Interactions cost the caller, not the service (issue 25, decision 037): the authorization
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
  dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-flood-'));
  // The default per-client limit, the client's address from a proxy we trust (the test), a small
  // file, sign-ins that wait fifteen seconds, and a purge every second.
  server = await startServerProcess({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '60',
    TRUST_PROXY: 'true',
    SQLITE_MAX_SIZE_MB: String(CAP_MB),
    SIGN_IN_TTL_SECONDS: '15',
    PURGE_INTERVAL_SECONDS: '1',
  });
  await addPublicClient({ dataDir }, FLOODED_CLIENT.id, FLOODED_CLIENT.redirectUri);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
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
