import { Group } from '@semaphore-protocol/group';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedLeanIMT } from './packed-lean-imt.ts';

describe('PackedLeanIMT', () => {
  it('gives the same root, depth and Merkle proofs as Group, whatever the batch sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 1, maxLength: 6 }), (batches) => {
        const tree = new PackedLeanIMT();
        let next = 1n;
        const all: bigint[] = [];
        for (const size of batches) {
          const leaves = Array.from({ length: size }, () => (next += 7919n));
          all.push(...leaves);
          tree.append(leaves);
        }
        const reference = new Group(all);
        expect(tree.root).toBe(reference.root);
        expect(tree.size).toBe(reference.size);
        expect(tree.depth).toBe(reference.depth);
        for (const index of [0, all.length - 1, all.length >> 1])
          expect(tree.merkleProof(index)).toEqual(reference.generateMerkleProof(index));
      }),
      { numRuns: 15 },
    );
  });

  it('replaces a leaf in place, zero included (erasure), as Group.updateMember does', () => {
    const leaves = Array.from({ length: 37 }, (_, n) => BigInt(n + 1) * 104_729n);
    const tree = new PackedLeanIMT();
    tree.append(leaves);
    const reference = new Group(leaves);
    for (const [index, value] of [
      [0, 5n],
      [36, 0n],
      [17, 99n],
    ] as const) {
      tree.update(index, value);
      reference.updateMember(index, value);
      expect(tree.root).toBe(reference.root);
      expect(tree.merkleProof(index)).toEqual(reference.generateMerkleProof(index));
    }
    expect(tree.updates).toBe(3);
    expect(() => tree.update(37, 1n)).toThrow(RangeError);
    // A member erased before this tree read it arrives as 0 (decision 022), as Group.removeMember leaves it.
    tree.append([0n]);
    reference.addMember(1n);
    reference.removeMember(37);
    expect(tree.root).toBe(reference.root);
  });

  it('is empty with root 0 and grows its levels past their first capacity', () => {
    const tree = new PackedLeanIMT();
    expect([tree.size, tree.depth, tree.root]).toEqual([0, 0, 0n]);
    // One leaf leaves room for 1,025; the next 1,029 make every level copy itself into a larger buffer.
    const leaves = Array.from({ length: 1_030 }, (_, n) => BigInt(n + 1));
    tree.append(leaves.slice(0, 1));
    tree.append(leaves.slice(1));
    expect(tree.root).toBe(new Group(leaves).root);
  });
});
