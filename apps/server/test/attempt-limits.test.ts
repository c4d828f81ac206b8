import { createHash, createHmac } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { SQLite } from '../src/storage/sqlite/sqlite-driver.ts';
import { blindOprfInput, generateOprfKeyPair, normaliseInput } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptKeySecret } from '../src/limits/attempt-key-secret.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';

/**
 * The attempt limits against a real server process with its default limits (60 a minute per client
 * and route, 6,000 a minute globally, 5 failed verifications) but a guess bucket of 20, behind a
 * trusted proxy so each request can name its client in X-Forwarded-For.
 */
let server: ServerProcess;
let dataDir: string;
let oprfKey: Uint8Array;
let publicKey: Uint8Array;

beforeAll(async () => {
  dataDir = tempDir('zeroid-limits-');
  ({ privateKey: oprfKey, publicKey } = await generateOprfKeyPair());
  server = await startServerProcess({
    DATA_DIR: dataDir,
    OPRF_PRIVATE_KEY: Buffer.from(oprfKey).toString('base64url'),
    TRUST_PROXY: 'true',
    RATE_LIMIT_PER_MINUTE: '60',
    GUESSES_BEFORE_DELAY: '20',
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
  });
}, 120_000);

afterAll(() => stopProcesses([server]));

interface Reply {
  status: number;
  code?: string;
  verdict?: string;
  retryAfter: number;
}

async function send(client: string, method: 'GET' | 'POST', url: string, body?: object): Promise<Reply> {
  const response = await fetch(server.url + url, {
    method,
    headers: { 'x-forwarded-for': client, ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { error?: { code: string }; 'Verification Result'?: string };
  return {
    status: response.status,
    code: json.error?.code,
    verdict: json['Verification Result'],
    retryAfter: Number(response.headers.get('retry-after')),
  };
}

const wrongVerification = (client: string, i = 0) => send(client, 'POST', '/verify', { bio_info: `not registered ${client} ${i}` });
const oprfRound = async (client: string) => {
  const { request } = await blindOprfInput(publicKey, 'bio', normaliseInput(`a guess from ${client}`));
  return send(client, 'POST', '/oprf', { element: Buffer.from(request).toString('base64url') });
};

/** Runs `count` tasks, `concurrency` at a time. */
async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

const tally = (replies: Reply[]) =>
  replies.reduce<Record<string, number>>((counts, r) => {
    const key = `${r.status} ${r.code ?? r.verdict}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

function readCounters(): { key: string; count: number; last_at: number }[] {
  const db = new SQLite(path.join(dataDir, 'zeroid.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT key, count, last_at FROM attempt_counters').all() as { key: string; count: number; last_at: number }[];
  } finally {
    db.close();
  }
}

describe('attempt limits on a real server process', () => {
  it('leaves the service open to every other client after 6,000 requests from one address', async () => {
    const attacker = '198.51.100.66';
    const floods: Array<() => Promise<Reply>> = [
      () => wrongVerification(attacker, Math.random()),
      () => send(attacker, 'POST', '/register', { id_info: 'malformed: no bio_info' }),
      () => send(attacker, 'POST', '/register', { id_info: 'x', bio_info: '   ' }),
      () => send(attacker, 'POST', '/oprf', { element: 'AAAA' }),
      () => send(attacker, 'GET', '/members?bucket=0123456789'),
    ];
    const flood = await pool(6_000, 32, (i) => floods[i % floods.length]!());
    const attackerTally = tally(flood);
    // Each route lets the address through 60 times a minute; of those, only 5 verifications were
    // well formed enough to be admitted (then the failure throttle), and nothing else was.
    expect(attackerTally['200 Failure']).toBe(5);
    expect(flood.filter((r) => r.status === 200)).toHaveLength(5);
    expect(attackerTally['429 RATE_LIMITED']).toBeGreaterThanOrEqual(6_000 - 5 * 60);

    const others = await pool(200, 16, (i) => (i % 2 ? send(`203.0.113.${i}`, 'GET', '/members') : wrongVerification(`203.0.113.${i}`)));
    expect(tally(others)).toEqual({ '200 undefined': 100, '200 Failure': 100 });

    // The global budget counts what was admitted and nothing refused (it may be less if a minute ended).
    const global = readCounters().find((row) => row.key === 'global-guess-budget');
    expect(global?.count).toBeLessThanOrEqual(5 + 200);
    expect(global?.count).toBeGreaterThan(0);
  }, 180_000);

  it('evaluates at most 5 of 40 concurrent wrong verifications from a fresh client', async () => {
    const client = '198.51.100.40';
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => wrongVerification(client, i)));
    expect(tally(replies)).toEqual({ '200 Failure': 5, '429 TOO_MANY_FAILURES': 35 });
    expect(Math.min(...replies.filter((r) => r.status === 429).map((r) => r.retryAfter))).toBeGreaterThanOrEqual(29);
  });

  it('refuses a client that /verify locked out on raw /register and /oprf as well', async () => {
    const client = '198.51.100.40';
    const register = await send(client, 'POST', '/register', { id_info: 'LOCKED-1', bio_info: 'a guess at someone' });
    expect(register).toMatchObject({ status: 429, code: 'TOO_MANY_FAILURES' });
    expect(register.retryAfter).toBeGreaterThan(0);
    expect(await oprfRound(client)).toMatchObject({ status: 429, code: 'TOO_MANY_FAILURES' });
    expect(await oprfRound('198.51.100.41')).toMatchObject({ status: 200 });
  });

  it('draws every OPRF evaluation from one guess budget: /oprf, raw /register (2) and raw /verify', async () => {
    const client = '198.51.100.50';
    for (let i = 0; i < 9; i++) expect((await oprfRound(client)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect(await send(client, 'POST', '/register', { id_info: `GB-${i}`, bio_info: `guess budget ${i}` })).toMatchObject({ status: 200 });
    }
    expect(await send(client, 'POST', '/verify', { bio_info: 'guess budget 0' })).toMatchObject({ verdict: 'Success' });
    // 9 + 5 × 2 + 1 = 20 evaluations: the allowance is spent, and every route that evaluates refuses.
    for (const reply of [
      await oprfRound(client),
      await send(client, 'POST', '/register', { id_info: 'GB-X', bio_info: 'one more' }),
      await send(client, 'POST', '/verify', { bio_info: 'guess budget 1' }),
    ]) {
      expect(reply).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
      expect(reply.retryAfter).toBeGreaterThanOrEqual(29);
    }
    // A refused verification gave its reserved failure back, and a member list evaluates nothing.
    expect(await send(client, 'GET', '/members')).toMatchObject({ status: 200 });
  });

  it('groups IPv6 clients by /64 through X-Forwarded-For', async () => {
    for (let i = 1; i <= 5; i++) expect(await wrongVerification(`2001:db8:5:5::${i}`)).toMatchObject({ verdict: 'Failure' });
    expect(await wrongVerification('2001:db8:5:5:ffff:ffff:ffff:ffff')).toMatchObject({ status: 429, code: 'TOO_MANY_FAILURES' });
    expect(await oprfRound('2001:db8:5:5::abc')).toMatchObject({ status: 429, code: 'TOO_MANY_FAILURES' });
    expect(await wrongVerification('2001:db8:5:6::1')).toMatchObject({ verdict: 'Failure' });
    expect(await wrongVerification('::ffff:198.51.100.40')).toMatchObject({ status: 429, code: 'TOO_MANY_FAILURES' });
  });

  it('stores clients as an HMAC under a secret derived from the OPRF key, never a hash of the address', async () => {
    const keys = readCounters().map((row) => row.key);
    const secret = attemptKeySecret(oprfKey);
    const hmac = (client: string) => createHmac('sha256', secret).update(`zeroid/attempts/v2:${client}`).digest('base64url');
    expect(keys).toContain(`failures:${hmac('198.51.100.40')}`);
    expect(keys).toContain(`bucket:${hmac('198.51.100.50')}`);
    expect(keys).toContain(`failures:${hmac('2001:db8:5:5:0:0:0:0/64')}`);
    // 198.51.100.50's verifications: one Success (given back) and one refused by its guess budget (given back).
    expect(readCounters().find((row) => row.key === `failures:${hmac('198.51.100.50')}`)?.count).toBe(0);
    // Its bucket of 20 is empty: full again only 20 refills (15 min each) after it was emptied.
    const fullAt = Number(readCounters().find((row) => row.key === `bucket:${hmac('198.51.100.50')}`)?.last_at);
    expect(fullAt).toBeGreaterThan(Date.now() + 19 * 900_000);
    expect(fullAt).toBeLessThanOrEqual(Date.now() + 20 * 900_000);
    const addresses = ['198.51.100.40', '198.51.100.50', '198.51.100.66', '2001:db8:5:5:0:0:0:0/64'];
    for (const address of addresses) {
      const sha256 = createHash('sha256').update(`zeroid/attempts/v1:${address}`).digest('base64url');
      const bare = createHash('sha256').update(address).digest();
      for (const key of keys) {
        expect(key).not.toContain(address);
        expect(key).not.toContain(sha256);
        expect(key).not.toContain(bare.toString('base64url'));
        expect(key).not.toContain(bare.toString('hex'));
      }
    }
  });

  it('keeps the database, its WAL and its shared memory readable by the owner only (0600)', () => {
    for (const file of ['zeroid.sqlite', 'zeroid.sqlite-wal', 'zeroid.sqlite-shm']) {
      expect((statSync(path.join(dataDir, file)).mode & 0o777).toString(8), file).toBe('600');
    }
  });
});
