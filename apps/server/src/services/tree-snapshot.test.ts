import { Group } from '@semaphore-protocol/group';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTree, encodeTree } from './tree-snapshot.ts';

describe('tree checkpoints', () => {
  it('round-trip every node of trees of any size', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 2n ** 254n }), { minLength: 1, maxLength: 70 }), (leaves) => {
        const group = new Group(leaves);
        const decoded = decodeTree(group.size, encodeTree(group));
        expect(decoded.root).toBe(group.root);
        expect(decoded.export()).toBe(group.export());
        decoded.addMember(12345n);
        group.addMember(12345n);
        expect(decoded.root).toBe(group.root);
      }),
      { numRuns: 60 },
    );
  });

  it('still reads the JSON checkpoints written before', () => {
    const group = new Group([1n, 2n, 3n]);
    expect(decodeTree(3, group.export()).root).toBe(group.root);
  });

  it('refuses a checkpoint whose length does not match its size', () => {
    const text = encodeTree(new Group([1n, 2n, 3n]));
    expect(() => decodeTree(4, text)).toThrow(/bytes/);
  });
});
