import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateProof, verifyProof } from '@semaphore-protocol/proof';
import { SMALL_ORDER_POINTS, deriveDidKey, type Identity } from '@zeroid/protocol';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgeRegistration, mixedOrderPoint, subgroupPoint } from '../../../packages/protocol/test/forge-registration.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { releaseSnarkjs } from './real-proofs.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { postJson } from './support/post.ts';

/**
 * The threat model's degenerate Semaphore key, against a real server process: a registration whose Semaphore key is degenerate
 * is a 400 and adds no leaf, and a proof made with the secret 0 fails even when its leaf, poseidon2(0, 1),
 * is already in the tree (a database written before the rule). Since decision 056 the v2 body that
 * carried a Semaphore key is refused whole (PROTOCOL_V2_REGISTRATION_CLOSED), before its key is read;
 * a v3 registration carries no key, and its commitment is proven from the OPRF.
 */
const ZERO_SECRET_COMMITMENT = poseidon2([0n, 1n]).toString();
let dataDir: string;
let server: ServerProcess;
let client: ZkTestClient;
let artifacts: Artifacts;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'zeroid-degenerate-'));
  // As an older version would have let anyone do: the identity point's commitment registered.
  const storage = await openStorage({ dataDir });
  expect(
    await storage.identities.register({
      commitment: ZERO_SECRET_COMMITMENT,
      idTag: '00'.repeat(32),
      did: deriveDidKey(new Uint8Array(64)).did,
    }),
  ).toMatchObject({ inserted: true });
  await storage.close();
  server = await startServerProcess({ DATA_DIR: dataDir });
  artifacts = await Artifacts.load();
  client = new ZkTestClient(viaHttp(server.url), artifacts);
  expect((await client.register('DK-1 Erin', 'degenerate keys erin biometric')).json()).toMatchObject({ 'DID already generated': false });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await releaseSnarkjs();
});

const size = async () => ((await (await fetch(`${server.url}/members`)).json()) as { size: number }).size;

describe('degenerate Semaphore keys, against a real server process', () => {
  const classes: Array<[string, [bigint, bigint], bigint, string?]> = [
    ...SMALL_ORDER_POINTS.map(({ x, y, order }): [string, [bigint, bigint], bigint] => [`a point of order ${order}`, [x, y], 0n]),
    ['a mixed-order point (k · Base8 + a point of order 8)', mixedOrderPoint(987654321n), 987654321n],
    ['a point off the curve', [subgroupPoint(11n)[0], subgroupPoint(11n)[1] + 1n], 11n],
    ...SMALL_ORDER_POINTS.map(({ x, y, order }): [string, [bigint, bigint], bigint, string] => [
      `the commitment of a point of order ${order}, beside a valid key`,
      subgroupPoint(13n),
      13n,
      poseidon2([x, y]).toString(),
    ]),
  ];

  it.each(classes)('refuses %s with a 400, and adds no leaf', async (_name, point, k, commitment) => {
    const before = await size();
    const didKey = deriveDidKey(crypto.getRandomValues(new Uint8Array(64)));
    const idTag = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
    const challenge = await client.challenge();
    const { fields, signatures } = forgeRegistration({ idTag, did: didKey.did, challenge, commitment }, didKey.secretKey, point, k);
    const reply = await postJson(server, '/register', { ...fields, signatures });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe('PROTOCOL_V2_REGISTRATION_CLOSED');
    expect(await size()).toBe(before);
  });

  it('fails a proof made with the secret 0 for the leaf poseidon2(0, 1), although its Groth16 proof is valid', async () => {
    const members = (await (await fetch(`${server.url}/members?bucket=`)).json()) as {
      root: string;
      depth: number;
      members: Array<{ commitment: string; proofIndex: number; siblings: string[] }>;
    };
    const leaf = members.members.find((m) => m.commitment === ZERO_SECRET_COMMITMENT)!;
    expect(leaf).toBeDefined();
    const challenge = await client.challenge();
    // Anyone can be this identity: its secret is 0 and its key the identity point (0, 1).
    const zero = { secretScalar: 0n, commitment: BigInt(ZERO_SECRET_COMMITMENT) } as unknown as Identity;
    const merkleProof = { root: BigInt(members.root), leaf: zero.commitment, index: leaf.proofIndex, siblings: leaf.siblings.map(BigInt) };
    const depth = members.depth;
    const proof = await generateProof(zero, merkleProof, challenge, challenge, depth, {
      wasm: artifacts.get(`semaphore-${depth}.wasm`)!.path,
      zkey: artifacts.get(`semaphore-${depth}.zkey`)!.path,
    });
    expect(await verifyProof(proof)).toBe(true);
    expect((await client.verify(proof)).json()).toEqual({ 'Verification Result': 'Failure' });
    // The challenge was not spent on it: a real member can still use it.
    const erin = await client.prove('degenerate keys erin biometric', challenge);
    expect((await client.verify(erin!)).json()).toEqual({ 'Verification Result': 'Success' });
  });
});
