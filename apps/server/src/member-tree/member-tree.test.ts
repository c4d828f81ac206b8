import { Group } from '@semaphore-protocol/group';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/types.ts';
import { BACKGROUND_CATCH_UP_MS, Registry, bucketHexChars, provingDepthFor } from './member-tree.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

let dataDir: string;
let storage: Storage;
beforeEach(async () => {
  dataDir = tempDir('zeroid-registry-');
  storage = await openStorage({ dataDir });
});
afterEach(async () => {
  await storage.close();
  removeTempDirs();
});

const register = async (from: number, to: number) => {
  for (let n = from; n < to; n++) await storage.identities.register({ commitment: String(10_000 + n), idTag: `t${n}`, did: `d${n}` });
};
const expectedRoot = (count: number) => new Group(Array.from({ length: count }, (_, n) => BigInt(10_000 + n))).root.toString();

describe('Registry', () => {
  it('builds the tree of the table and records the root it serves', async () => {
    await register(0, 5);
    const registry = new Registry(storage);
    await registry.catchUp();
    expect(registry.root).toBe(expectedRoot(5));
    expect(await storage.roots.rootOf(5)).toBe(expectedRoot(5));
    await register(5, 7);
    await registry.catchUp();
    expect(registry.size).toBe(7);
    expect(registry.root).toBe(expectedRoot(7));
  });

  it('catches up after registrations in the background, once for a burst, stamped with when the table moved', async () => {
    await register(0, 3);
    const registry = new Registry(storage);
    await registry.catchUp();
    const reads = vi.spyOn(storage.identities, 'commitmentsFrom');
    // Both registrations are stored before either is reported: a slow write between the two reports
    // could outlast the catch-up's delay and make this test see the background catch-up early.
    await register(3, 4);
    await register(4, 5);
    const moved = Date.now();
    registry.catchUpSoon();
    registry.catchUpSoon();
    // Nothing happens at once: neither the tree nor the root history moves, nothing is read.
    expect(registry.size).toBe(3);
    expect(reads).not.toHaveBeenCalled();
    await vi.waitFor(async () => expect(await storage.roots.rootOf(5)).toBe(expectedRoot(5)), { timeout: BACKGROUND_CATCH_UP_MS * 20 });
    expect(registry.root).toBe(expectedRoot(5));
    // One catch-up took both registrations, and only the newest root was written.
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await storage.roots.rootOf(4)).toBeUndefined();
    // Root 3 was superseded when the first registration was reported, not when the tree caught up.
    const window = 10_000;
    expect(await storage.roots.isAccepted(expectedRoot(3), window, new Date(moved + window - 1))).toBe(true);
    expect(await storage.roots.isAccepted(expectedRoot(3), window, new Date(moved + window + BACKGROUND_CATCH_UP_MS / 2))).toBe(false);
  });

  it('writes the root before any catch-up that serves it returns, even with a background one pending', async () => {
    await register(0, 2);
    const registry = new Registry(storage);
    registry.catchUpSoon();
    expect(await storage.roots.rootOf(2)).toBeUndefined();
    await registry.catchUp();
    expect(registry.root).toBe(expectedRoot(2));
    expect(await storage.roots.rootOf(2)).toBe(expectedRoot(2));
  });

  it('starts from a checkpoint and hashes only the leaves added after it', async () => {
    await register(0, 30);
    const first = new Registry(storage, { checkpointEvery: 10 });
    await first.catchUp();
    await first.flush();
    expect((await storage.checkpoints.latest(1000))?.size).toBe(30);
    await register(30, 33);

    const reads = vi.spyOn(storage.identities, 'commitmentsFrom');
    const second = new Registry(storage);
    await second.catchUp();
    expect(reads.mock.calls[0]?.[0]).toBe(30);
    expect(second.size).toBe(33);
    expect(second.root).toBe(expectedRoot(33));
    expect(second.leavesInBucket('')).toHaveLength(33);
    expect(second.commitmentAt(0)).toBe('10000');
  });

  it('ignores a checkpoint that does not reproduce its recorded root, and rebuilds from the table', async () => {
    await register(0, 12);
    const forged = new Group(Array.from({ length: 12 }, (_, n) => BigInt(n + 1)));
    await storage.checkpoints.save({ size: 12, root: forged.root.toString(), nodes: forged.export() });
    await storage.roots.record(12, expectedRoot(12));

    const reads = vi.spyOn(storage.identities, 'commitmentsFrom');
    const registry = new Registry(storage);
    await registry.catchUp();
    expect(reads.mock.calls[0]?.[0]).toBe(0);
    expect(registry.root).toBe(expectedRoot(12));
  });

  it('computes the same Merkle proofs as the library, for every leaf of an uneven tree', async () => {
    await register(0, 37);
    const registry = new Registry(storage);
    await registry.catchUp();
    const reference = new Group(Array.from({ length: 37 }, (_, n) => BigInt(10_000 + n)));
    for (let index = 0; index < 37; index++) expect(registry.merkleProof(index)).toEqual(reference.generateMerkleProof(index));
    expect(() => registry.merkleProof(37)).toThrow(RangeError);
  });

  it('sizes buckets so the expected bucket holds at least 64 members', () => {
    expect(bucketHexChars(0)).toBe(0);
    expect(bucketHexChars(1023)).toBe(0);
    expect(bucketHexChars(1024)).toBe(1);
    expect(bucketHexChars(16_383)).toBe(1);
    expect(bucketHexChars(16_384)).toBe(2);
    expect(bucketHexChars(1_000_000)).toBe(3);
    for (const size of [1024, 5000, 100_000, 1_000_000]) expect(size / 16 ** bucketHexChars(size)).toBeGreaterThanOrEqual(64);
  });
});

describe('provingDepthFor', () => {
  it('is the LeanIMT depth of a group of that size, at least 1, growing past each power of two', () => {
    for (let size = 1; size <= 70; size++) {
      const group = new Group(Array.from({ length: size }, (_, n) => BigInt(n + 1)));
      expect(provingDepthFor(size), `size ${size}`).toBe(Math.max(1, group.depth));
    }
    expect([2, 3, 4, 5, 1024, 1025, 2 ** 20, 2 ** 20 + 1].map(provingDepthFor)).toEqual([1, 2, 2, 3, 10, 11, 20, 21]);
  });
  it('reads nothing when nothing moved, and sees a registration or an erasure alone made elsewhere at the next catch-up (decision 064)', async () => {
    await register(0, 4);
    const registry = new Registry(storage);
    await registry.catchUp();
    const commitmentsFrom = vi.spyOn(storage.identities, 'commitmentsFrom');
    const erasuresAfter = vi.spyOn(storage.identities, 'erasuresAfter');
    await registry.catchUp();
    await registry.catchUp();
    expect([commitmentsFrom.mock.calls.length, erasuresAfter.mock.calls.length]).toEqual([0, 0]);

    // Written by another process's storage would be the same: only the table knows.
    expect(await storage.identities.erase([{ commitment: '10001', idTag: 't1' }])).toBe(true);
    await registry.catchUp();
    const erased = new Group(Array.from({ length: 4 }, (_, n) => BigInt(10_000 + n)));
    erased.removeMember(1);
    expect(registry.root).toBe(erased.root.toString());
    await register(4, 5);
    await registry.catchUp();
    erased.addMember(10_004n);
    expect([registry.size, registry.root]).toEqual([5, erased.root.toString()]);
    expect(commitmentsFrom.mock.calls.length).toBeGreaterThan(0);
  });

  it('sets erased leaves to 0 from the erasure log, alike from rows, from a checkpoint and in a running tree (decision 022)', async () => {
    await register(0, 40);
    const running = new Registry(storage, { checkpointEvery: 10 });
    await running.catchUp();
    await running.flush();
    const erase = (n: number) => storage.identities.erase([{ commitment: String(10_000 + n), idTag: `t${n}` }]);
    expect(await erase(3)).toBe(true);
    await register(40, 42);
    expect(await erase(41)).toBe(true);

    const group = new Group(Array.from({ length: 42 }, (_, n) => BigInt(10_000 + n)));
    group.removeMember(3);
    group.removeMember(41);
    const expected = group.root.toString();
    await running.catchUp();
    expect(running.root).toBe(expected);
    expect(running.leavesInBucket('')).not.toContain(3);
    expect(running.leavesInBucket('')).not.toContain(41);
    expect(running.leavesInBucket('')).toHaveLength(40);
    // What the zero-secret shortcut asks (decision 030): an erased leaf is no longer held.
    expect([running.holds('10002'), running.holds('10003'), running.holds('10041'), running.holds('99999')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    // The erasure deleted the checkpoint that held leaf 3; the catch-up saved a new one.
    await running.flush();
    expect(await storage.checkpoints.latest(42)).toMatchObject({ size: 42, root: expected });
    const fromCheckpoint = new Registry(storage);
    await fromCheckpoint.catchUp();
    expect(fromCheckpoint.root).toBe(expected);
    // Another member's path is valid against the new root.
    const proof = running.merkleProof(5);
    expect(proof.root.toString()).toBe(expected);
    expect(proof.siblings).toEqual(group.generateMerkleProof(5).siblings);
  });
});
