import { Group } from '@semaphore-protocol/group';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { treeNodes } from './lean-imt-nodes.ts';
import { decodeTree } from './tree-snapshot.ts';

/** The text format checkpoints had before they were paged (decision 025), for reading old databases. */
const encodeTree = (group: Group) =>
  'lean-imt-b64:' +
  Buffer.concat(treeNodes(group).flatMap((level) => level.map((node) => Buffer.from(node.toString(16).padStart(64, '0'), 'hex')))).toString(
    'base64',
  );

describe('tree checkpoints written as text', () => {
  it('still read every node of trees of any size', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 2n ** 254n }), { minLength: 1, maxLength: 70 }), (leaves) => {
        const group = new Group(leaves);
        const decoded = decodeTree(group.size, encodeTree(group));
        expect(decoded.root).toBe(group.root);
        for (let i = 0; i < leaves.length; i += 7) expect(decoded.merkleProof(i)).toEqual(group.generateMerkleProof(i));
        decoded.append([12345n]);
        group.addMember(12345n);
        expect(decoded.root).toBe(group.root);
      }),
      { numRuns: 60 },
    );
  });

  it('still reads the JSON checkpoints written before', () => {
    const group = new Group([1n, 2n, 3n]);
    expect(decodeTree(3, group.export()).root).toBe(group.root);
    expect(() => decodeTree(4, group.export())).toThrow(/holds 3/);
  });

  it('refuses a checkpoint whose length does not match its size', () => {
    const text = encodeTree(new Group([1n, 2n, 3n]));
    expect(() => decodeTree(4, text)).toThrow(/bytes/);
  });
});
