import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { memberBucket } from '@zeroid/protocol';
import {
  BucketIndex,
  checkpointPieces,
  levelLengths,
  openStorage,
  PackedLeanIMT,
  readCheckpointPages,
  savePagedCheckpoint,
} from './server.ts';

/**
 * `tsx bench/start-up-costs.ts --members 1000000`: where the registry's start-up went before decision
 * 025 and where it goes now, in one process on one SQLite database, step by step: the old text
 * checkpoint (read, decode into bigint arrays, recompute every leaf's bucket) against the paged one
 * (read pages into the packed tree, buckets included). Random nodes: only bytes and counts matter.
 */
const { values } = parseArgs({ options: { members: { type: 'string', default: '1000000' } } });
const members = Number(values.members);
const seconds = (started: number) => +((performance.now() - started) / 1000).toFixed(2);
const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-start-up-costs-'));
try {
  const storage = await openStorage({ dataDir });
  const { tree, levels } = PackedLeanIMT.allocate(members);
  for (const level of levels) {
    randomBytes(level.length).copy(level);
    for (let at = 0; at < level.length; at += 32) level[at] = 0;
  }
  const buckets = new BucketIndex();
  buckets.load(Uint16Array.from({ length: members }, (_, i) => (i * 40_503) & 0xffff));

  // Before: one text value of every node in base64, as tree-snapshot.ts wrote it.
  const text = 'lean-imt-b64:' + Buffer.concat(tree.levelBytes()).toString('base64');
  await storage.checkpoints.save({ size: members, root: 'text', nodes: text });
  let started = performance.now();
  const row = await storage.checkpoints.latest(members);
  const readText = seconds(started);
  started = performance.now();
  const bytes = Buffer.from(row!.nodes.slice('lean-imt-b64:'.length), 'base64');
  let offset = 0;
  const bigints = levelLengths(members).map((length) =>
    Array.from({ length }, () => BigInt(`0x${bytes.toString('hex', offset, (offset += 32))}`)),
  );
  const decodeText = seconds(started);
  started = performance.now();
  const byBucket = new Map<string, number[]>();
  bigints[0]!.forEach((leaf, i) => {
    const bucket = memberBucket(leaf.toString(), 4);
    const list = byBucket.get(bucket);
    if (list) list.push(i);
    else byBucket.set(bucket, [i]);
  });
  const bucketsBefore = seconds(started);

  // Now: pages, straight into the packed tree, buckets included.
  await savePagedCheckpoint(storage.checkpoints, { size: members, root: 'paged', pieces: checkpointPieces(tree, buckets) });
  started = performance.now();
  await readCheckpointPages(members, (first, count) => storage.checkpoints.pages(members, 'paged', first, count));
  const readPages = seconds(started);
  console.log(
    JSON.stringify(
      {
        members,
        before: {
          textMb: Math.round(text.length / 1e6),
          readText,
          decodeText,
          bucketsBefore,
          total: +(readText + decodeText + bucketsBefore).toFixed(2),
        },
        after: { readPagesIntoTree: readPages },
      },
      null,
      2,
    ),
  );
  await storage.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
