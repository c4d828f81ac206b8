import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PUBLIC_PHASE1_HASHES } from './public-phase1.ts';
import type { FileContribution } from './read-contributions.ts';

/**
 * One step of the ceremony as `ceremony/transcript.json` records it. `name` is the name the file
 * itself carries (a beacon's is `beacon: <source>`); `hash` is snarkjs's contribution hash (phase 2's
 * start: the circuit hash). Phase 1 begins with `start` (a local accumulator) or `import` (a public
 * ceremony's file, with the BLAKE2b-512 hash that ceremony published).
 */
export interface TranscriptEntry {
  phase: 1 | 2;
  kind: 'start' | 'import' | 'contribution' | 'beacon';
  name: string;
  hash?: string;
  /** `import`: the BLAKE2b-512 of the file as its ceremony published it. */
  blake2b?: string;
  beacon?: { value: string; iterationsExp: number; source: string };
  date: string;
}

/** What the setup is, as the server reports it (/healthz `setup`) and warns about at start. */
export interface SetupState {
  /**
   * `public`: phase 1 is a public multi-party ceremony's file, imported with a BLAKE2b-512 this build
   * pins (`PUBLIC_PHASE1`); `local`: anything else, made here or imported under a hash nobody pinned.
   */
  phase1: 'public' | 'local';
  /** Phase-2 contributions recorded (beacons not counted). */
  contributions: number;
  /** Phase 2 is closed with a public random beacon. */
  beacon: boolean;
  /** Fit for real registrations: a public phase 1, two or more phase-2 contributions and a closing beacon. */
  final: boolean;
}

export function readTranscript(file: string): TranscriptEntry[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as TranscriptEntry[]) : [];
}

/** Written whole to a temporary file, then renamed over the old one: never half a transcript. */
export function writeTranscript(file: string, entries: TranscriptEntry[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, `${JSON.stringify(entries, null, 2)}\n`);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

export function setupState(entries: TranscriptEntry[], publicHashes: readonly string[] = PUBLIC_PHASE1_HASHES): SetupState {
  const first = entries.find((e) => e.phase === 1);
  const phase1: SetupState['phase1'] =
    first?.kind === 'import' && first.blake2b !== undefined && publicHashes.includes(first.blake2b) ? 'public' : 'local';
  const phase2 = entries.filter((e) => e.phase === 2);
  const contributions = phase2.filter((e) => e.kind === 'contribution').length;
  const beacon = phase2.at(-1)?.kind === 'beacon';
  return { phase1, contributions, beacon, final: phase1 === 'public' && contributions >= 2 && beacon };
}

/**
 * Throws unless the contributions a file carries are exactly the transcript's for that phase: the
 * same number, in the same order, with the same names and hashes, a beacon where (and only where)
 * the transcript records one, with its value and iterations.
 */
export function matchTranscript(phase: 1 | 2, entries: TranscriptEntry[], found: FileContribution[], fileName: string): void {
  const recorded = entries.filter((e) => e.phase === phase && (e.kind === 'contribution' || e.kind === 'beacon'));
  if (recorded.length !== found.length) {
    throw new Error(`${fileName} carries ${found.length} contributions, transcript.json records ${recorded.length} for phase ${phase}`);
  }
  recorded.forEach((entry, i) => {
    const inFile = found[i]!;
    const where = `phase-${phase} contribution ${i + 1}`;
    if (entry.name !== inFile.name) throw new Error(`${where}: ${fileName} names it "${inFile.name}", transcript.json "${entry.name}"`);
    if (entry.hash !== inFile.hash)
      throw new Error(`${where} ("${entry.name}"): its hash in ${fileName} is not the one transcript.json records`);
    const isBeacon = entry.kind === 'beacon';
    if (isBeacon !== (inFile.beacon !== undefined)) {
      throw new Error(
        `${where} ("${entry.name}"): transcript.json records ${isBeacon ? 'a beacon' : 'a contribution'}, ${fileName} holds ${inFile.beacon ? 'a beacon' : 'a contribution'}`,
      );
    }
    if (
      isBeacon &&
      (entry.beacon?.value.toLowerCase() !== inFile.beacon!.value || entry.beacon.iterationsExp !== inFile.beacon!.iterationsExp)
    ) {
      throw new Error(`${where}: the beacon in ${fileName} is not the value and iterations transcript.json records`);
    }
  });
}
