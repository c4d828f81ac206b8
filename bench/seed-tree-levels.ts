import { closeSync, existsSync, openSync, readSync, statSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { progressReporter } from './seed-progress.ts';

const NODE_BYTES = 32;
const CHUNK = 16_384;

/** Level lengths of a LeanIMT of `size` leaves: size, ⌈size/2⌉, … 1. */
export function levelLengths(size: number): number[] {
  const lengths: number[] = [];
  for (let length = size; ; length = Math.ceil(length / 2)) {
    lengths.push(length);
    if (length <= 1) return lengths;
  }
}

export const levelFile = (dir: string, level: number) => path.join(dir, `level-${level}.bin`);

/** Nodes already in a level file, dropping a half-written last node. */
export function nodesIn(file: string): number {
  if (!existsSync(file)) return 0;
  const bytes = statSync(file).size;
  if (bytes % NODE_BYTES !== 0) truncateSync(file, bytes - (bytes % NODE_BYTES));
  return Math.floor(bytes / NODE_BYTES);
}

const toBig = (bytes: Buffer, at: number) => BigInt(`0x${bytes.toString('hex', at, at + NODE_BYTES)}`);

/**
 * Hashes a LeanIMT level by level into files of 32-byte big-endian nodes (`level-0.bin` are the
 * leaves, written by `writeLeaves`), appending in chunks: killed, it resumes at the last whole node.
 * LeanIMT's rule: a parent is Poseidon(left, right), or the left child itself when it has no right one.
 */
export function hashLevels(dir: string, size: number): bigint {
  const lengths = levelLengths(size);
  const total = lengths.slice(1).reduce((sum, n) => sum + n, 0);
  let before = 0;
  for (let level = 1; level < lengths.length; level += 1) before += Math.min(nodesIn(levelFile(dir, level)), lengths[level]!);
  const report = progressReporter('tree', total, before);
  let done = before;
  for (let level = 1; level < lengths.length; level += 1) {
    const children = lengths[level - 1]!;
    const file = levelFile(dir, level);
    let parent = nodesIn(file);
    const input = openSync(levelFile(dir, level - 1), 'r');
    const output = openSync(file, 'a');
    const read = Buffer.alloc(2 * CHUNK * NODE_BYTES);
    const written = Buffer.alloc(CHUNK * NODE_BYTES);
    while (parent < lengths[level]!) {
      const count = Math.min(CHUNK, lengths[level]! - parent);
      const childCount = Math.min(2 * count, children - 2 * parent);
      readSync(input, read, 0, childCount * NODE_BYTES, 2 * parent * NODE_BYTES);
      for (let i = 0; i < count; i += 1) {
        const at = 2 * i * NODE_BYTES;
        if (2 * i + 1 < childCount) {
          written.write(
            poseidon2([toBig(read, at), toBig(read, at + NODE_BYTES)])
              .toString(16)
              .padStart(64, '0'),
            i * NODE_BYTES,
            'hex',
          );
        } else {
          read.copy(written, i * NODE_BYTES, at, at + NODE_BYTES);
        }
      }
      writeSync(output, written, 0, count * NODE_BYTES);
      parent += count;
      done += count;
      report(done);
    }
    closeSync(input);
    closeSync(output);
  }
  const top = Buffer.alloc(NODE_BYTES);
  const fd = openSync(levelFile(dir, lengths.length - 1), 'r');
  readSync(fd, top, 0, NODE_BYTES, 0);
  closeSync(fd);
  return toBig(top, 0);
}
