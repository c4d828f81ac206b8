import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import {
  bucketHexChars,
  BucketIndex,
  checkpointBytes,
  checkpointPieces,
  openStorage,
  PackedLeanIMT,
  PAGED_CHECKPOINT,
  provingDepthFor,
  readCheckpointPages,
  savePagedCheckpoint,
  SQLite,
} from './server.ts';
import { seedRows } from './seed-rows.ts';
import { median } from './stats.ts';

/** Measurements at small scale, each the median of `runs`, that the extrapolation scales up. */
export interface SimulationInputs {
  /** Bytes a member of the packed tree and bucket index (measured: external memory at `treeMembers`). */
  packedBytesPerMember: number;
  /** Heap bytes a member of LeanIMT's arrays of bigints, as the server held the tree before decision 025. */
  bigintBytesPerMember: number;
  /** SQLite file bytes a member (identities with its three unique indexes), at `dbMembers`. */
  sqliteBytesPerMember: number;
  /** Checkpoint bytes read into the tree a second, from SQLite pages, at `treeMembers`. */
  checkpointReadBytesPerSecond: number;
  /** One Poseidon hash in JavaScript (poseidon-lite), µs: a rebuild without a checkpoint costs n − 1. */
  poseidonMicros: number;
  /** JSON bytes of one member's entry in a /members reply, per level of depth, and fixed. */
  memberEntryBytesPerLevel: number;
  memberEntryFixedBytes: number;
  treeMembers: number;
  dbMembers: number;
}

export interface SimulationRow {
  members: number;
  depth: number;
  memoryMb: number;
  bigintMemoryMb: number;
  checkpointMb: number;
  sqliteGb: number;
  loadSeconds: number;
  rebuildMinutes: number;
  bucketHexChars: number;
  bucketMembers: number;
  membersReplyKb: number;
}

// Memory deltas need a collection before each reading; tsx gives no way to pass --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function measurePacked(members: number): number {
  gc();
  const before = process.memoryUsage().arrayBuffers;
  const { tree, levels } = PackedLeanIMT.allocate(members);
  for (const level of levels) level.fill(7);
  const buckets = new BucketIndex();
  buckets.load(Uint16Array.from({ length: members }, (_, i) => (i * 40_503) & 0xffff));
  gc();
  const bytes = process.memoryUsage().arrayBuffers - before;
  if (tree.size !== members || buckets.size !== members) throw new Error('unexpected size');
  return bytes / members;
}

function measureBigints(members: number): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const levels: bigint[][] = [];
  for (let length = members; ; length = Math.ceil(length / 2)) {
    levels.push(Array.from({ length }, () => BigInt(`0x${randomBytes(31).toString('hex')}`)));
    if (length <= 1) break;
  }
  gc();
  const bytes = process.memoryUsage().heapUsed - before;
  if (levels.length === 0) throw new Error('unreachable');
  return bytes / members;
}

async function measureSqlite(members: number, treeMembers: number, runs: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-simulate-'));
  try {
    const storage = await openStorage({ dataDir });
    await storage.close();
    const db = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
    db.pragma('synchronous = OFF');
    const insert = db.prepare('INSERT INTO identities (leaf_index, commitment, id_tag, did, created_at) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const row of seedRows(randomBytes(32), 0, members))
        insert.run(row.leafIndex, row.commitment.toString(), row.idTag, row.did, Date.now());
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const file = path.join(dataDir, 'zeroid.sqlite');
    const sqliteBytesPerMember = statSync(file).size / members;

    // A paged checkpoint of `treeMembers` (random nodes: only bytes matter here), read back as at start-up.
    const reopened = await openStorage({ dataDir });
    const { tree, levels } = PackedLeanIMT.allocate(treeMembers);
    for (const level of levels) randomBytes(level.length).copy(level);
    const buckets = new BucketIndex();
    buckets.load(new Uint16Array(treeMembers));
    await savePagedCheckpoint(reopened.checkpoints, { size: treeMembers, root: '1', pieces: checkpointPieces(tree, buckets) });
    const rates: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      const latest = await reopened.checkpoints.latest(treeMembers);
      if (latest?.nodes !== PAGED_CHECKPOINT) throw new Error('checkpoint not saved');
      await readCheckpointPages(treeMembers, (first, count) => reopened.checkpoints.pages(treeMembers, '1', first, count));
      rates.push(checkpointBytes(treeMembers) / ((performance.now() - started) / 1000));
    }
    await reopened.close();
    return { sqliteBytesPerMember, checkpointReadBytesPerSecond: median(rates) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function measurePoseidon(runs: number): number {
  const times: number[] = [];
  let a = 1n;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    for (let i = 0; i < 2000; i += 1) a = poseidon2([a, 12345n]);
    times.push(((performance.now() - started) * 1000) / 2000);
  }
  return median(times);
}

/** A /members entry as the route serialises it: commitment, leafIndex, proofIndex and decimal siblings. */
function memberEntryBytes(depth: number): number {
  const field = () => BigInt(`0x${randomBytes(31).toString('hex')}`).toString();
  return (
    JSON.stringify({ commitment: field(), leafIndex: 12_345_678, proofIndex: 12_345_678, siblings: Array.from({ length: depth }, field) })
      .length + 1
  );
}

export async function measureInputs(runs = 3, treeMembers = 200_000, dbMembers = 50_000): Promise<SimulationInputs> {
  const fixed = memberEntryBytes(0);
  return {
    packedBytesPerMember: median(Array.from({ length: runs }, () => measurePacked(treeMembers))),
    bigintBytesPerMember: measureBigints(Math.min(treeMembers, 100_000)),
    ...(await measureSqlite(dbMembers, treeMembers, runs)),
    poseidonMicros: measurePoseidon(runs),
    memberEntryBytesPerLevel: (memberEntryBytes(20) - fixed) / 20,
    memberEntryFixedBytes: fixed,
    treeMembers,
    dbMembers,
  };
}

export const ASSUMPTIONS = [
  'Memory, checkpoint and database bytes grow linearly with members (measured bytes a member × n): every structure is per leaf, and the tree has < 2n nodes.',
  'Start-up reads the checkpoint at the rate measured here from SQLite (one process, page cache warm), and nothing else grows with n (leafCount is an index lookup).',
  'A rebuild without a checkpoint hashes n − 1 times at the poseidon-lite speed measured here, on one core.',
  '/members buckets use at most 4 hex characters (65,536 buckets, INDEXED_BUCKET_CHARS), so past 4.2 M members a bucket grows as n / 65,536; its reply holds one entry per member with `depth` decimal siblings.',
  'Semaphore v4 circuits exist up to depth 32: a single tree holds at most 2^32 ≈ 4.3 billion members.',
];

export function extrapolate(inputs: SimulationInputs, sizes = [1e3, 1e5, 1e6, 1e7, 1e8, 1e9]): SimulationRow[] {
  return sizes.map((members) => {
    const depth = provingDepthFor(members);
    const chars = bucketHexChars(members);
    const bucketMembers = Math.round(members / 16 ** chars);
    const checkpoint = checkpointBytes(members);
    return {
      members,
      depth,
      memoryMb: Math.round((inputs.packedBytesPerMember * members) / 1e6),
      bigintMemoryMb: Math.round((inputs.bigintBytesPerMember * members) / 1e6),
      checkpointMb: Math.round(checkpoint / 1e6),
      sqliteGb: +((inputs.sqliteBytesPerMember * members) / 1e9).toFixed(2),
      loadSeconds: +(checkpoint / inputs.checkpointReadBytesPerSecond).toFixed(1),
      rebuildMinutes: Math.round((members * inputs.poseidonMicros) / 60e6),
      bucketHexChars: chars,
      bucketMembers,
      membersReplyKb: Math.round((bucketMembers * (inputs.memberEntryFixedBytes + depth * inputs.memberEntryBytesPerLevel)) / 1000),
    };
  });
}

const fmt = (n: number) => n.toLocaleString('en');

export function simulationTable(rows: SimulationRow[]): string {
  return [
    '| members | depth | tree + buckets in memory | as bigint arrays (before) | checkpoint | SQLite file | checkpoint load | rebuild without checkpoint | bucket chars | members a bucket (k) | /members reply |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${fmt(r.members)} | ${r.depth} | ${fmt(r.memoryMb)} MB | ${fmt(r.bigintMemoryMb)} MB | ${fmt(r.checkpointMb)} MB | ${r.sqliteGb} GB | ${r.loadSeconds} s | ${fmt(r.rebuildMinutes)} min | ${r.bucketHexChars} | ${fmt(r.bucketMembers)} | ${fmt(r.membersReplyKb)} KB |`,
    ),
  ].join('\n');
}

const BEGIN = '<!-- simulate:begin (written by `npm run bench -- simulate`) -->';
const END = '<!-- simulate:end -->';

/** Replaces the simulation block of docs/scaling.md with these inputs, assumptions and table. */
export function writeSimulation(file: string, date: string, inputs: SimulationInputs, rows: SimulationRow[]): void {
  const block = [
    BEGIN,
    '',
    `Measured ${date.slice(0, 10)} (median of 3 runs, this 2-core machine, shared), tree and checkpoint at ${fmt(inputs.treeMembers)} members, SQLite at ${fmt(inputs.dbMembers)}:`,
    '',
    `- packed tree and bucket index: **${inputs.packedBytesPerMember.toFixed(1)} bytes a member**; LeanIMT's bigint arrays: ${inputs.bigintBytesPerMember.toFixed(0)} bytes a member;`,
    `- SQLite file: ${inputs.sqliteBytesPerMember.toFixed(0)} bytes a member; checkpoint read: ${(inputs.checkpointReadBytesPerSecond / 1e6).toFixed(0)} MB/s;`,
    `- one Poseidon hash in JavaScript: ${inputs.poseidonMicros.toFixed(0)} µs; a /members entry: ${inputs.memberEntryFixedBytes} bytes + ${inputs.memberEntryBytesPerLevel.toFixed(0)} a level.`,
    '',
    'Assumptions:',
    '',
    ...ASSUMPTIONS.map((a) => `- ${a}`),
    '',
    simulationTable(rows),
    '',
    END,
  ].join('\n');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${file} lacks the simulate markers`);
  writeFileSync(file, text.slice(0, start) + block + text.slice(end + END.length));
}
