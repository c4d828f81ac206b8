import { Group } from '@semaphore-protocol/group';
import { commitmentOfSecretScalar, memberBucket } from '@zeroid/protocol';
import { credentialLeaf, issuerPublicKey } from '@zeroid/protocol/credential';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/types.ts';
import { bucketMembers } from './bucket-members.ts';
import { credentialLeaves } from './leaf-sources.ts';
import { Registry } from './member-tree.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

let storage: Storage;
beforeEach(async () => {
  storage = await openStorage({ dataDir: tempDir('zeroid-credential-tree-') });
});
afterEach(async () => {
  await storage.close();
  removeTempDirs();
});

const identity = (n: number) => ({ commitment: String(10_000 + n), idTag: `t${n}`, did: `d${n}` });
const leaf = (n: number) => String(77_000 + n);
/** Registers identities `from`…`to - 1`; the even ones with a credential leaf. */
const register = async (from: number, to: number) => {
  for (let n = from; n < to; n++)
    await storage.identities.register(n % 2 === 0 ? { ...identity(n), credentialLeaf: leaf(n) } : identity(n));
};
const rootOf = (leaves: bigint[]) => new Group(leaves).root.toString();

describe('the credential tree (decision 088)', () => {
  it('holds only the credential leaves, in registration order, with its own root history and checkpoints', async () => {
    await register(0, 6);
    const members = new Registry(storage, { checkpointEvery: 1 });
    const credentials = new Registry(storage, { leaves: credentialLeaves(storage), checkpointEvery: 1 });
    await Promise.all([members.catchUp(), credentials.catchUp()]);
    expect(members.size).toBe(6);
    expect(credentials.size).toBe(3);
    const expected = rootOf([0, 2, 4].map((n) => BigInt(leaf(n))));
    expect(credentials.root).toBe(expected);
    expect(await storage.credentialRoots.rootOf(3)).toBe(expected);
    expect(await storage.roots.rootOf(3)).toBeUndefined();
    expect(await storage.roots.rootOf(6)).toBe(members.root);
    await credentials.flush();
    await members.flush();
    // Each tree's checkpoints in its own tables: none of the member tree's holds 3 leaves.
    expect(await storage.checkpoints.latest(3)).toBeUndefined();
    expect(await storage.checkpoints.latest(6)).toMatchObject({ size: 6 });
    expect(await storage.credentialCheckpoints.latest(6)).toMatchObject({ size: 3, root: expected });
    // A new process starts from the checkpoint and reads only the leaves after it.
    await register(6, 8);
    const reads = vi.spyOn(storage.credentialLeaves, 'leavesFrom');
    const restarted = new Registry(storage, { leaves: credentialLeaves(storage) });
    await restarted.catchUp();
    expect(reads.mock.calls.map(([from]) => from)).toEqual([3]);
    expect(restarted.root).toBe(rootOf([0, 2, 4, 6].map((n) => BigInt(leaf(n)))));
    reads.mockRestore();

    // A bucket of the whole (small) tree lists every leaf with a proof the Semaphore group agrees with.
    const group = new Group([0, 2, 4].map((n) => BigInt(leaf(n))));
    const bucket = bucketMembers(credentials, '');
    expect(bucket.map((member) => member.leaf)).toEqual([leaf(0), leaf(2), leaf(4)]);
    expect(bucket[1]!.siblings).toEqual(group.generateMerkleProof(1).siblings.map(String));
  });

  it('catches up with registrations and erasures made by another process, and a fresh tree rebuilds the same', async () => {
    await register(0, 4);
    const credentials = new Registry(storage, { leaves: credentialLeaves(storage) });
    await credentials.catchUp();
    const before = credentials.root;
    expect(await storage.identities.erase([identity(2)])).toBe(true);
    await register(4, 6);
    await credentials.catchUp();
    const expected = rootOf([BigInt(leaf(0)), 0n, BigInt(leaf(4))]);
    expect(credentials.root).toBe(expected);
    expect(credentials.size).toBe(3);
    // The erased leaf is in no bucket any more; the root before the erasure stays accepted for the window.
    expect(bucketMembers(credentials, '').map((member) => member.leaf)).toEqual([leaf(0), leaf(4)]);
    expect(await storage.credentialRoots.isAccepted(before, 60_000)).toBe(true);
    expect(await storage.credentialRoots.isAccepted(before, 60_000, new Date(Date.now() + 120_000))).toBe(false);

    const rebuilt = new Registry(storage, { leaves: credentialLeaves(storage) });
    await rebuilt.catchUp();
    expect(rebuilt.root).toBe(expected);
  });

  it('loses the checkpoints that hold an erased leaf, and a tree that had not seen the erasure saves none', async () => {
    await register(0, 6);
    const stale = new Registry(storage, { leaves: credentialLeaves(storage), checkpointEvery: 1 });
    await stale.catchUp();
    await stale.flush();
    expect(await storage.credentialCheckpoints.latest(3)).toMatchObject({ size: 3 });
    expect(await storage.identities.erase([identity(2)])).toBe(true);
    expect(await storage.credentialCheckpoints.latest(3), 'the checkpoint held position 1').toBeUndefined();
    expect(await storage.credentialCheckpoints.save({ size: 3, root: stale.root, nodes: 'x' }, 0)).toBe(false);
    await stale.catchUp();
    await stale.flush();
    const saved = await storage.credentialCheckpoints.latest(3);
    expect(saved).toMatchObject({ size: 3, root: rootOf([BigInt(leaf(0)), 0n, BigInt(leaf(4))]) });
  });
});

describe('GET /credential-members, bucketed by the commitment (decision 088)', () => {
  // Large numbers, so that no commitment can turn up by chance inside a sibling's digits.
  const commitment = (n: number) => String(10n ** 40n + 7919n * BigInt(n));
  const credential = (n: number) => String(10n ** 41n + 104_729n * BigInt(n));
  const withCredential = (n: number) => n % 3 === 0;
  /** Past 1,024 members, so a bucket is one hex character (bucketHexChars 1). */
  const count = 1_100;
  const issuers = [1, 2, 3].map((fill) => issuerPublicKey(new Uint8Array(32).fill(fill)));
  /** A person with a real secret, registered with a credential of the second issuer. */
  const secret = 123_456_789_012_345_678_901_234_567_890n;
  const personCommitment = commitmentOfSecretScalar(secret).toString();
  const personLeaf = credentialLeaf(issuers[1]!, secret);
  let test: TestApp;
  let erased: number;

  beforeAll(async () => {
    test = await startTestApp({ env: { TRUSTED_ISSUERS: `First=${issuers[0]}, Second=${issuers[1]}, Third=${issuers[2]}` } });
    for (let n = 0; n < count; n++) {
      const identity = { commitment: commitment(n), idTag: `t${n}`, did: `d${n}` };
      await test.storage.identities.register(withCredential(n) ? { ...identity, credentialLeaf: credential(n) } : identity);
    }
    erased = [...Array(count).keys()].find((n) => withCredential(n) && memberBucket(commitment(n), 1) === memberBucket(commitment(0), 1))!;
    expect(await test.storage.identities.erase([{ commitment: commitment(erased), idTag: `t${erased}` }])).toBe(true);
  }, 120_000);
  afterAll(async () => {
    delete process.env.VITE_BACKEND_URL;
    await test?.destroy();
  });

  it('answers for a /members bucket exactly the live credential leaves of its identities, with proofs and without a commitment', async () => {
    const params = (await test.app.inject({ url: '/credential-members' })).json<{ bucketHexChars: number; size: number }>();
    expect(params).toMatchObject({ bucketHexChars: 1, size: Math.ceil(count / 3) });
    const credentials = [...Array(count).keys()].filter(withCredential);
    const group = new Group(credentials.map((n) => (n === erased ? 0n : BigInt(credential(n)))));
    for (const bucket of [memberBucket(commitment(0), 1), memberBucket(commitment(1), 1)]) {
      const raw = await test.app.inject({ url: `/credential-members?bucket=${bucket}` });
      expect(raw.statusCode).toBe(200);
      const reply = raw.json<{
        root: string;
        members: Array<{ leaf: string; leafIndex: number; proofIndex: number; siblings: string[] }>;
      }>();
      const expected = credentials.filter((n) => n !== erased && memberBucket(commitment(n), 1) === bucket);
      expect(expected.length).toBeGreaterThan(10);
      expect(reply.members.map((m) => m.leaf)).toEqual(expected.map(credential));
      expect(reply.root).toBe(group.root.toString());
      for (const member of reply.members) {
        const position = credentials.findIndex((n) => credential(n) === member.leaf);
        const proof = group.generateMerkleProof(position);
        expect(member.leafIndex).toBe(position);
        expect(member.proofIndex).toBe(proof.index);
        expect(member.siblings).toEqual(proof.siblings.map(String));
      }
      for (let n = 0; n < count; n++) expect(raw.body.includes(commitment(n)), `the reply named commitment ${n}`).toBe(false);
      expect(raw.body.includes(credential(erased))).toBe(false);
    }
    // The bucket is the member tree's: its length follows the group's size, not the credential tree's.
    expect((await test.app.inject({ url: '/credential-members?bucket=' })).json()).toMatchObject({ error: { code: 'BUCKET_LENGTH' } });
  });

  it('keeps no reply built while a tree moved: a leaf filed during the read is in the next reply', async () => {
    // A bucket no other case asked for, so no reply of it is kept yet.
    const asked = [commitment(0), commitment(1), personCommitment].map((c) => memberBucket(c, 1));
    const bucket = [...'0123456789abcdef'].find((b) => !asked.includes(b))!;
    let late = 5_000;
    while (memberBucket(commitment(late), 1) !== bucket) late += 3;
    const read = test.storage.credentialLeaves.positionsOf.bind(test.storage.credentialLeaves);
    const during = vi.spyOn(test.storage.credentialLeaves, 'positionsOf').mockImplementationOnce(async (indexes) => {
      const owned = await read(indexes);
      await test.storage.identities.register({
        commitment: commitment(late),
        idTag: 'late',
        did: 'late',
        credentialLeaf: credential(late),
      });
      await Promise.all([test.registry.catchUp(), test.services.credentialRegistry.catchUp()]);
      return owned;
    });
    const leavesOf = async () =>
      (await test.app.inject({ url: `/credential-members?bucket=${bucket}` }))
        .json<{ members: Array<{ leaf: string }> }>()
        .members.map((m) => m.leaf);
    try {
      expect(await leavesOf()).not.toContain(credential(late));
      expect(await leavesOf()).toContain(credential(late));
    } finally {
      during.mockRestore();
    }
  });

  it("the device's search asks for one bucket, its commitment's (the one it asks /members for), and finds its leaf there", async () => {
    await test.storage.identities.register({ commitment: personCommitment, idTag: 'person', did: 'person', credentialLeaf: personLeaf });
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    process.env.VITE_BACKEND_URL = address;
    // The web app's own search (apps/web/src/prover/locate-credential.ts), its requests recorded as they go out.
    const web = (await import(LOCATE_CREDENTIAL)) as {
      locateCredential(secret: bigint, commitment: bigint): Promise<{ issuerPublicKey: string; member: { leaf: string } } | undefined>;
    };
    const requested: URL[] = [];
    const fetchOf = globalThis.fetch;
    const recording = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      requested.push(new URL(input instanceof Request ? input.url : input));
      return fetchOf(input, init);
    });
    const located = await web.locateCredential(secret, BigInt(personCommitment)).finally(() => recording.mockRestore());
    const buckets = requested.filter((url) => url.pathname === '/credential-members' && url.searchParams.has('bucket'));
    expect(buckets.map((url) => url.searchParams.get('bucket'))).toEqual([memberBucket(personCommitment, 1)]);
    expect(located).toMatchObject({ issuerPublicKey: issuers[1], member: { leaf: personLeaf } });
  });
});

// Held in a variable: the server's type check does not follow it into the web app (DOM and Vite types).
const LOCATE_CREDENTIAL = '../../../web/src/prover/locate-credential.ts';
