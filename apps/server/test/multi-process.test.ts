import { Group } from '@semaphore-protocol/group';
import { blindOprfInput, generateOprfKeyPair, normaliseInput } from '@zeroid/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { usePostgres } from './support/use-postgres.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { postJson } from './support/post.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * Two real server processes on one real PostgreSQL, as behind a load balancer: what one acknowledges,
 * the other knows at once; a challenge is single-use across both; leaf indexes stay gapless under a
 * race spread over both; and each process's tree equals the tree built from the table.
 */
const postgres = usePostgres();
let a: ServerProcess;
let b: ServerProcess;
let oprfPublicKey: Uint8Array;
let env: Record<string, string>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateOprfKeyPair();
  oprfPublicKey = publicKey;
  env = {
    DATABASE_URL: postgres.url,
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    DATA_DIR: '/tmp/zeroid-unused',
  };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await terminateCurve();
});

describe('two server processes on one PostgreSQL', () => {
  it('verifies on B at once what A registered, through the raw API', async () => {
    expect((await postJson(a, '/register', { id_info: 'MP-1', bio_info: 'multi process one' })).body).toMatchObject({
      'DID already generated': false,
    });
    expect((await postJson(b, '/verify', { bio_info: 'multi process one' })).body).toEqual({ 'Verification Result': 'Success' });
    expect((await postJson(b, '/register', { id_info: 'MP-1', bio_info: 'another' })).body).toEqual({ 'DID already generated': true });
  });

  it("tells a screen following on A that a phone opened its link on B, and that B's verification awaits the code (decision 047)", async () => {
    expect((await postJson(a, '/register', { id_info: 'MP-PHONE', bio_info: 'multi process phone' })).status).toBe(200);
    const { session, secret } = (await postJson(a, '/sessions', {})).body as { session: string; secret: string };
    const events: string[] = [];
    const controller = new AbortController();
    const stream = await fetch(`${a.url}/sessions/${session}/events?secret=${secret}`, { signal: controller.signal });
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream.body! as AsyncIterable<Uint8Array>)
        events.push(...(decoder.decode(chunk).match(/^data: .*$/gm) ?? []));
    })().catch(() => undefined);
    const heard = async (count: number) => {
      while (events.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
      return JSON.parse(events[count - 1]!.slice(6)) as Record<string, unknown>;
    };
    const screen = async () =>
      (await fetch(`${a.url}/sessions/${session}`, { headers: { 'session-secret': secret } })).json() as Promise<Record<string, unknown>>;
    expect(await heard(1)).toEqual({ session, status: 'pending', expiresAt: expect.any(String) });
    // The phone is served by B; A, which only follows the session, tells its screen all the same.
    expect((await fetch(`${b.url}/sessions/${session}/open`)).status).toBe(200);
    expect(await heard(2)).toMatchObject({ status: 'pending', phoneConnected: true });
    expect(await screen()).toMatchObject({ status: 'pending', phoneConnected: true });
    // The phone verifies on B: A's screen hears that the code is awaited, not a success.
    const verified = await postJson(b, '/verify', { bio_info: 'multi process phone', session });
    expect(await heard(3)).toMatchObject({ status: 'awaiting-code' });
    expect(await screen()).toMatchObject({ status: 'awaiting-code' });
    const confirmed = await fetch(`${a.url}/sessions/${session}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'session-secret': secret },
      body: JSON.stringify({ code: verified.body['Confirmation Code'] }),
    });
    expect(await confirmed.json()).toMatchObject({ confirmed: true });
    expect(await screen()).toEqual({ session, status: 'success', expiresAt: expect.any(String) });
    controller.abort();
    await reading;
  });

  it('verifies a proof on B for an identity registered on A in zero-knowledge mode, and the challenge works once', async () => {
    const artifacts = await Artifacts.load();
    const onA = new ZkTestClient(viaHttp(a.url), artifacts);
    const onB = new ZkTestClient(viaHttp(b.url), artifacts);
    expect((await onA.register('MP-ZK', 'multi process zero knowledge')).json()).toMatchObject({ 'DID already generated': false });
    const challengeFromA = await onA.challenge();
    const proof = await onB.prove('multi process zero knowledge', challengeFromA);
    expect(proof).toBeDefined();
    const verdicts = await Promise.all([onA.verify(proof!), onB.verify(proof!), onB.verify(proof!), onA.verify(proof!)]);
    expect(verdicts.map((r) => r.json<Record<string, string>>()['Verification Result']).sort()).toEqual([
      'Failure',
      'Failure',
      'Failure',
      'Success',
    ]);
  });

  it('keeps leaf indexes exactly 0..N-1 under 8 × 50 concurrent registrations spread over both, with one tree everywhere', async () => {
    const duplicates = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postJson(i % 2 ? a : b, '/register', { id_info: 'MP-DUP', bio_info: 'multi process duplicate' }),
      ),
    );
    expect(duplicates.filter((r) => r.body['DID already generated'] === false)).toHaveLength(1);

    const batches = Array.from({ length: 8 }, (_, batch) =>
      Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postJson((batch + i) % 2 ? a : b, '/register', { id_info: `MP-${batch}-${i}`, bio_info: `multi process race ${batch} ${i}` }),
        ),
      ),
    );
    const replies = (await Promise.all(batches)).flat();
    expect(replies.every((r) => r.status === 200 && r.body['DID already generated'] === false)).toBe(true);

    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const rows = (
      await client.query<{ leaf_index: number; commitment: string }>('SELECT leaf_index, commitment FROM identities ORDER BY leaf_index')
    ).rows;
    await client.end();
    expect(rows.map((r) => r.leaf_index)).toEqual(rows.map((_, i) => i));
    expect(rows).toHaveLength(3 + 1 + 400);

    const expectedRoot = new Group(rows.map((r) => BigInt(r.commitment))).root.toString();
    for (const server of [a, b]) {
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { members: number; root: string };
      expect(health).toMatchObject({ members: rows.length, root: expectedRoot });
    }
  }, 180_000);
});

describe('attempt limits across two server processes on one PostgreSQL', () => {
  let c: ServerProcess;
  let d: ServerProcess;
  beforeAll(async () => {
    // Default limits but a guess bucket of 20, behind a trusted proxy so each request names its client.
    const limited = {
      ...env,
      RATE_LIMIT_PER_MINUTE: '60',
      GUESSES_BEFORE_DELAY: '20',
      TRUST_PROXY: 'true',
      DERIVATION_THREADS: '1',
      PROOF_VERIFIER_THREADS: '1',
    };
    [c, d] = await Promise.all([startServerProcess(limited), startServerProcess(limited)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([c?.stop(), d?.stop()]);
  });

  const from = async (server: ServerProcess, client: string, path: string, body: object, reservation?: string) => {
    const response = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client, ...(reservation && { 'zeroid-reservation': reservation }) },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: { code: string }; 'Verification Result'?: string };
    return `${response.status} ${json.error?.code ?? json['Verification Result'] ?? 'evaluated'}`;
  };
  const tally = (replies: string[]) => replies.reduce<Record<string, number>>((t, r) => ({ ...t, [r]: (t[r] ?? 0) + 1 }), {});
  const oprfRound = async (server: ServerProcess, client: string, i: number, reservation?: string) => {
    const { request } = await blindOprfInput(oprfPublicKey, 'bio', normaliseInput(`guess ${i}`));
    return from(server, client, '/oprf', { element: Buffer.from(request).toString('base64url') }, reservation);
  };

  it('evaluates at most 5 of 40 concurrent wrong verifications from a fresh client, spread over both', async () => {
    const client = '198.51.100.140';
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => from(i % 2 ? c : d, client, '/verify', { bio_info: `wrong guess ${i}` })),
    );
    expect(tally(replies)).toEqual({ '200 Failure': 5, '429 TOO_MANY_FAILURES': 35 });
    // Either process now refuses the client's OPRF rounds as well.
    expect(await oprfRound(c, client, 0)).toBe('429 TOO_MANY_FAILURES');
    expect(await oprfRound(d, client, 1)).toBe('429 TOO_MANY_FAILURES');
  });

  it('draws 30 concurrent OPRF rounds spread over both from one guess budget of 20', async () => {
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => oprfRound(i % 2 ? c : d, '198.51.100.141', i)));
    expect(tally(replies)).toEqual({ '200 evaluated': 20, '429 TOO_MANY_GUESSES': 10 });
  });

  it("serves a flow's reserved rounds on either process after 30 concurrent rounds emptied the bucket (decision 074)", async () => {
    const client = '198.51.100.142';
    const reply = await fetch(`${c.url}/reservations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ guesses: 4 }),
    });
    expect(reply.status).toBe(200);
    const { reservation, guesses } = (await reply.json()) as { reservation: string; guesses: number };
    expect(guesses).toBe(4);
    const others = await Promise.all(Array.from({ length: 30 }, (_, i) => oprfRound(i % 2 ? c : d, client, i)));
    expect(tally(others)).toEqual({ '200 evaluated': 16, '429 TOO_MANY_GUESSES': 14 });
    const reserved = await Promise.all(Array.from({ length: 5 }, (_, i) => oprfRound(i % 2 ? d : c, client, 100 + i, reservation)));
    expect(tally(reserved)).toEqual({ '200 evaluated': 4, '429 TOO_MANY_GUESSES': 1 });
  });
});
