import { Group } from '@semaphore-protocol/group';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/types.ts';
import { bucketMembers } from './bucket-members.ts';
import { credentialLeaves } from './leaf-sources.ts';
import { Registry } from './member-tree.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

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
