import { blindOprfInput, generateOprfKeyPair, normaliseInput } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';

/**
 * The guess bucket's rules (decision 074) against a real server process on SQLite, with a small
 * bucket that refills fast enough to wait for: 5 evaluations, one back every 6 s. Behind a trusted
 * proxy, so each request names its client in X-Forwarded-For.
 */
const REFILL_SECONDS = 6;
let server: ServerProcess;
let env: Record<string, string>;
let publicKey: Uint8Array;

beforeAll(async () => {
  const pair = await generateOprfKeyPair();
  publicKey = pair.publicKey;
  env = {
    DATA_DIR: tempDir('zeroid-bucket-'),
    OPRF_PRIVATE_KEY: Buffer.from(pair.privateKey).toString('base64url'),
    TRUST_PROXY: 'true',
    RATE_LIMIT_PER_MINUTE: '600',
    GUESSES_BEFORE_DELAY: '5',
    GUESS_REFILL_PER_HOUR: String(3600 / REFILL_SECONDS),
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
  };
  server = await startServerProcess(env);
}, 120_000);

afterAll(() => stopProcesses([server]));

interface Reply {
  status: number;
  code?: string;
  retryAfter: number;
  json: Record<string, unknown>;
}

async function post(client: string, url: string, body: object, reservation?: string): Promise<Reply> {
  const response = await fetch(server.url + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client, ...(reservation && { 'zeroid-reservation': reservation }) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown> & { error?: { code: string } };
  return { status: response.status, code: json.error?.code, retryAfter: Number(response.headers.get('retry-after')), json };
}

let guess = 0;
const oprfRound = async (client: string, reservation?: string) => {
  const { request } = await blindOprfInput(publicKey, 'bio', normaliseInput(`guess ${guess++}`));
  return post(client, '/oprf', { element: Buffer.from(request).toString('base64url') }, reservation);
};
const reserve = (client: string, guesses: number) => post(client, '/reservations', { guesses });
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

describe('the guess bucket on a real server process', () => {
  it('serves a client that comes back when told; refusals, and a restart, never lengthen the wait', async () => {
    const client = '198.51.100.10';
    for (let i = 0; i < 5; i++) expect((await oprfRound(client)).status).toBe(200);
    const refused = await oprfRound(client);
    expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(REFILL_SECONDS);
    // Asking again and again takes nothing and moves nothing.
    for (let i = 0; i < 10; i++) {
      const again = await oprfRound(client);
      expect(again).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
      expect(again.retryAfter).toBeLessThanOrEqual(refused.retryAfter);
    }
    // Kept in the database: a restart does not fill the bucket (only the time it took refilled it)
    // and does not lengthen the wait.
    const stoppedAt = Date.now();
    await server.stop();
    server = await startServerProcess(env);
    const refilled = Math.ceil((Date.now() - stoppedAt) / 1000 / REFILL_SECONDS);
    const burst: Reply[] = [];
    for (let i = 0; i < 5; i++) burst.push(await oprfRound(client));
    const admitted = burst.filter((reply) => reply.status === 200).length;
    expect(admitted).toBeLessThan(5);
    expect(admitted).toBeLessThanOrEqual(refilled);
    const afterRestart = burst.at(-1)!;
    expect(afterRestart).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
    expect(afterRestart.retryAfter).toBeLessThanOrEqual(REFILL_SECONDS);
    await sleep(afterRestart.retryAfter);
    expect((await oprfRound(client)).status).toBe(200);
    // Served, and the next wait is one refill again, not twice the last.
    const next = await oprfRound(client);
    expect(next).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
    expect(next.retryAfter).toBeLessThanOrEqual(REFILL_SECONDS);
    await sleep(next.retryAfter);
    expect((await oprfRound(client)).status).toBe(200);
  }, 120_000);

  it("takes a flow's guesses all at once or none, and its reservation carries it through an empty bucket", async () => {
    const client = '198.51.100.20';
    for (let i = 0; i < 2; i++) expect((await oprfRound(client)).status).toBe(200);
    // Three left: a flow of four is refused whole, told when four are there, and takes nothing.
    const refused = await reserve(client, 4);
    expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
    expect(refused.retryAfter).toBeLessThanOrEqual(REFILL_SECONDS);
    for (let i = 0; i < 3; i++) expect((await reserve(client, 4)).retryAfter).toBeLessThanOrEqual(refused.retryAfter);
    await sleep(refused.retryAfter);
    const taken = await reserve(client, 4);
    expect(taken.status).toBe(200);
    expect(taken.json).toMatchObject({ guesses: 4 });
    const reservation = taken.json.reservation as string;
    // The bucket is empty now, yet the flow's two rounds and its registration (2) are all served.
    expect(await oprfRound(client)).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
    expect((await oprfRound(client, reservation)).status).toBe(200);
    expect((await oprfRound(client, reservation)).status).toBe(200);
    const registered = await post(client, '/register', { id_info: 'BUCKET-1', bio_info: 'a flow of four' }, reservation);
    expect(registered).toMatchObject({ status: 200, json: { 'DID already generated': false } });
    // Spent: a fifth draws nothing from it.
    expect(await oprfRound(client, reservation)).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
  }, 60_000);

  it('gives back what a flow did not use, and a reservation serves only the address that took it', async () => {
    const owner = '198.51.100.30';
    const other = '198.51.100.31';
    const taken = await reserve(owner, 5);
    expect(taken).toMatchObject({ status: 200, json: { guesses: 5 } });
    const reservation = taken.json.reservation as string;
    for (let i = 0; i < 5; i++) expect((await oprfRound(other)).status).toBe(200);
    // Another address with the owner's reservation draws nothing from it: its own bucket is empty.
    expect(await oprfRound(other, reservation)).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
    expect((await oprfRound(owner, reservation)).status).toBe(200);
    expect(await post(other, '/reservations/release', { reservation })).toMatchObject({ status: 200, json: { released: 0 } });
    expect(await post(owner, '/reservations/release', { reservation })).toMatchObject({ status: 200, json: { released: 4 } });
    expect(await post(owner, '/reservations/release', { reservation })).toMatchObject({ status: 200, json: { released: 0 } });
    // The four unused came back to the owner's bucket, and no more.
    for (let i = 0; i < 4; i++) expect((await oprfRound(owner)).status).toBe(200);
    expect(await oprfRound(owner)).toMatchObject({ status: 429, code: 'TOO_MANY_GUESSES' });
  }, 60_000);
});
