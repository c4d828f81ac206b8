import { Group } from '@semaphore-protocol/group';
import { setTreeNodes, treeNodes } from './lean-imt-nodes.ts';

const NODE_BYTES = 32;
const PREFIX = 'lean-imt-b64:';

/**
 * A Merkle tree checkpoint as text: every node of every level, 32 bytes big-endian each, in base64
 * behind a prefix. A LeanIMT of n leaves has levels of n, ⌈n/2⌉, … 1 nodes, so the size alone says
 * where each level starts. At a million members this is 85 MB of text instead of LeanIMT's 160 MB
 * of JSON, and loading it builds no array of two million strings (the JSON route peaked above 1 GB).
 */
export function encodeTree(group: Group): string {
  const levels = treeNodes(group);
  const count = levels.reduce((sum, level) => sum + level.length, 0);
  const bytes = Buffer.alloc(count * NODE_BYTES);
  let offset = 0;
  for (const level of levels) {
    for (const node of level) {
      bytes.write(node.toString(16).padStart(NODE_BYTES * 2, '0'), offset, 'hex');
      offset += NODE_BYTES;
    }
  }
  return PREFIX + bytes.toString('base64');
}

/** The tree of `size` leaves from `encodeTree`'s text, or from LeanIMT's own JSON export (older checkpoints). */
export function decodeTree(size: number, text: string): Group {
  if (!text.startsWith(PREFIX)) return Group.import(text);
  const bytes = Buffer.from(text.slice(PREFIX.length), 'base64');
  const lengths: number[] = [];
  for (let length = size; ; length = Math.ceil(length / 2)) {
    lengths.push(length);
    if (length <= 1) break;
  }
  const expected = lengths.reduce((sum, length) => sum + length, 0) * NODE_BYTES;
  if (bytes.length !== expected) throw new Error(`A tree checkpoint of ${size} leaves has ${bytes.length} bytes, expected ${expected}`);
  let offset = 0;
  const levels: bigint[][] = lengths.map((length) => {
    const level = new Array<bigint>(length);
    for (let i = 0; i < length; i += 1, offset += NODE_BYTES) level[i] = BigInt(`0x${bytes.toString('hex', offset, offset + NODE_BYTES)}`);
    return level;
  });
  const group = new Group();
  setTreeNodes(group, levels);
  return group;
}
