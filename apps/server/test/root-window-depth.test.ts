import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { releaseSnarkjs } from './real-proofs.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

/**
 * Decision 015, against real server processes with real proofs: a proof made against a root
 * still in its window verifies after the group passes a power of two (2 → 3 members, depth 1 → 2);
 * a proof refused as stale is a Failure but no failed guess.
 */
const A = { id: 'RW-1 Frank', bio: 'root window frank biometric' };
const B = { id: 'RW-2 Grace', bio: 'root window grace biometric' };
const C = { id: 'RW-3 Heidi', bio: 'root window heidi biometric' };

let dataDir: string;
let server: ServerProcess | undefined;
let artifacts: Artifacts;
const start = async (env: Record<string, string>) => {
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '100000', FAILED_VERIFICATIONS_BEFORE_DELAY: '1', ...env });
  return new ZkTestClient(viaHttp(server.url), artifacts);
};
const tree = async () => (await (await fetch(`${server!.url}/members`)).json()) as { size: number; depth: number; root: string };
const result = async (client: ZkTestClient, proof: SemaphoreProof) => {
  const reply = await client.verify(proof);
  return reply.statusCode === 200 ? reply.json<Record<string, string>>()['Verification Result'] : reply.statusCode;
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'zeroid-root-window-'));
  artifacts = await Artifacts.load();
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await releaseSnarkjs();
});

describe('the root window across a depth increase', () => {
  let beforeGrowth: SemaphoreProof;
  let staleLater: SemaphoreProof;

  it('verifies a proof made at depth 1 after the tree grew to depth 2, while its root is in the window', async () => {
    const client = await start({ ROOT_WINDOW_SECONDS: '3600' });
    for (const person of [A, B])
      expect((await client.register(person.id, person.bio)).json()).toMatchObject({ 'DID already generated': false });
    const small = await tree();
    expect(small).toMatchObject({ size: 2, depth: 1 });
    beforeGrowth = (await client.prove(A.bio))!;
    staleLater = (await client.prove(B.bio))!;
    expect([beforeGrowth.merkleTreeDepth, beforeGrowth.merkleTreeRoot]).toEqual([1, small.root]);

    expect((await client.register(C.id, C.bio)).json()).toMatchObject({ 'DID already generated': false });
    const grown = await tree();
    expect(grown).toMatchObject({ size: 3, depth: 2 });
    expect(grown.root).not.toBe(small.root);

    expect(await result(client, beforeGrowth)).toBe('Success');
    // And a proof made now is made at depth 2, and verifies too.
    const afterGrowth = (await client.prove(C.bio))!;
    expect(afterGrowth.merkleTreeDepth).toBe(2);
    expect(await result(client, afterGrowth)).toBe('Success');
  });

  it('answers a stale proof Failure without counting it as a failed guess; a real failure counts', async () => {
    await server!.stop();
    // The same database, now with a window of 0 s: every superseded root is stale at once. One
    // failed verification is enough to make the next attempt wait (FAILED_VERIFICATIONS_BEFORE_DELAY=1).
    const client = await start({ ROOT_WINDOW_SECONDS: '0' });
    expect(await tree()).toMatchObject({ size: 3, depth: 2 });
    for (let i = 0; i < 3; i++) expect(await result(client, staleLater)).toBe('Failure');
    // Not throttled: the stale proofs were no failures. A fresh proof still verifies.
    const fresh = (await client.prove(B.bio))!;
    expect(await result(client, fresh)).toBe('Success');
    // A proof at a depth other than its root's is a failed guess, and the next attempt must wait.
    const wrongDepth = (await client.prove(A.bio))!;
    expect(wrongDepth.merkleTreeDepth).toBe(2);
    expect(await result(client, { ...wrongDepth, merkleTreeDepth: 1 })).toBe('Failure');
    expect(await result(client, staleLater)).toBe(429);
  });
});
