import { Group } from '@semaphore-protocol/group';
import { treeNodes } from './lean-imt-nodes.ts';
import { levelLengths, NODE_BYTES, PackedLeanIMT } from './packed-lean-imt.ts';

const PREFIX = 'lean-imt-b64:';

/**
 * A tree from a checkpoint written as text, before checkpoints were paged (decision 025): every
 * node of every level, 32 bytes big-endian each, in base64 behind a prefix, or LeanIMT's own JSON
 * export (older still). Neither scales: at ten million members the text would pass V8's largest
 * string. Checkpoints are now written as pages (`tree-checkpoint-pages.ts`); these are only read.
 */
export function decodeTree(size: number, text: string): PackedLeanIMT {
  const { tree, levels } = PackedLeanIMT.allocate(size);
  if (!text.startsWith(PREFIX)) {
    const group = Group.import(text);
    if (group.size !== size) throw new Error(`A tree checkpoint of ${size} leaves holds ${group.size}`);
    treeNodes(group).forEach((level, i) =>
      level.forEach((node, j) => levels[i]!.write(node.toString(16).padStart(NODE_BYTES * 2, '0'), j * NODE_BYTES, 'hex')),
    );
    return tree;
  }
  const bytes = Buffer.from(text.slice(PREFIX.length), 'base64');
  const expected = levelLengths(size).reduce((sum, length) => sum + length, 0) * NODE_BYTES;
  if (bytes.length !== expected) throw new Error(`A tree checkpoint of ${size} leaves has ${bytes.length} bytes, expected ${expected}`);
  let offset = 0;
  for (const level of levels) offset += bytes.copy(level, 0, offset, offset + level.length);
  return tree;
}
