import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { preparePhase1 } from './prepare-phase1.ts';
import { readPhase1 } from './read-contributions.ts';
import { setupFiles, type SetupLayout } from './setup-files.ts';
import { curves, powersOfTau, zKey, type Logger } from './snarkjs-setup.ts';
import { readTranscript, writeTranscript, type TranscriptEntry } from './transcript.ts';
import { hasUnprintable } from './printable-name.ts';

/**
 * The ceremony's steps on one setup (`ceremony.ts` runs them on the v3 circuit's, the tests on a
 * small one). Each writes its file into a temporary file and renames it into place, and appends
 * what it did to the transcript under the name the file itself carries. A contribution's entropy
 * is 64 bytes from the operating system's CSPRNG, used once and never written anywhere.
 */
export interface Beacon {
  value: string;
  iterationsExp: number;
  source: string;
}

const entropy = () => randomBytes(64).toString('hex');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** snarkjs keeps the first 64 characters of a name in the file; the transcript records what the file carries. */
const NAME_CHARACTERS = 64;
const inFile = (name: string) => name.substring(0, NAME_CHARACTERS);

function checkName(name: string): void {
  if (hasUnprintable(name)) throw new Error(`A contribution's name has a control or format character: ${JSON.stringify(name)}`);
  if (name.length > NAME_CHARACTERS)
    throw new Error(`A contribution's name is at most ${NAME_CHARACTERS} characters (the file keeps no more)`);
}

function record(layout: SetupLayout, entry: Omit<TranscriptEntry, 'date'>, restart?: 1 | 2): void {
  const kept = readTranscript(layout.transcript).filter((e) => restart === undefined || e.phase < restart);
  mkdirSync(path.dirname(layout.transcript), { recursive: true });
  writeTranscript(layout.transcript, [...kept, { ...entry, name: inFile(entry.name), date: new Date().toISOString() }]);
}

/** Runs `write(temporary)` and renames the result over `target`; snarkjs answers a refusal with `false` or -1 (and logs why). */
async function replace(target: string, write: (temporary: string) => Promise<unknown>): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const result = await write(temporary);
  if (result === false || result === -1 || !existsSync(temporary)) throw new Error(`snarkjs refused to write ${path.basename(target)}`);
  renameSync(temporary, target);
}

/** A phase 2 made on an earlier phase 1 is no phase 2 of this one: removed, with its transcript. */
function dropPhase2(layout: SetupLayout, log?: Logger): void {
  const files = setupFiles(layout);
  if (!existsSync(files.zkey)) return;
  rmSync(files.zkey);
  rmSync(files.vkey, { force: true });
  log?.warn('Phase 2 was started on the old phase 1: run `setup` and collect its contributions again.');
}

export async function initPhase1(layout: SetupLayout, power: number, log?: Logger): Promise<void> {
  const { phase1 } = setupFiles(layout);
  if (existsSync(phase1)) throw new Error('Phase 1 exists; add contributions instead');
  mkdirSync(layout.artifacts, { recursive: true });
  await replace(phase1, async (t) => powersOfTau.newAccumulator(await curves.getCurveFromName('bn128'), power, t, log));
  writeTranscript(layout.transcript, []);
  record(layout, { phase: 1, kind: 'start', name: `new accumulator, 2^${power}` });
}

export async function contributePhase1(layout: SetupLayout, name: string, log?: Logger): Promise<void> {
  checkName(name);
  const { phase1 } = setupFiles(layout);
  let hash: Uint8Array = new Uint8Array();
  await replace(phase1, async (t) => (hash = await powersOfTau.contribute(phase1, t, name, entropy(), log)));
  record(layout, { phase: 1, kind: 'contribution', name, hash: hex(hash) }, 2);
  dropPhase2(layout, log);
}

export async function beaconPhase1(layout: SetupLayout, beacon: Beacon, log?: Logger): Promise<void> {
  const { phase1 } = setupFiles(layout);
  const name = `beacon: ${beacon.source}`;
  let hash: Uint8Array = new Uint8Array();
  await replace(
    phase1,
    async (t) => (hash = (await powersOfTau.beacon(phase1, t, name, beacon.value, beacon.iterationsExp, log)) || new Uint8Array()),
  );
  record(layout, { phase: 1, kind: 'beacon', name, hash: hex(hash), beacon }, 2);
  dropPhase2(layout, log);
}

/**
 * Starts phase 2 of the R1CS on the current phase 1, prepared afresh unless `pinned` names the
 * prepared file's hash (a cached one is then used only if it has it); returns that hash, to pin.
 */
export async function startPhase2(layout: SetupLayout, log?: Logger, pinned?: string): Promise<string> {
  const files = setupFiles(layout);
  if (!existsSync(files.r1cs) || !existsSync(files.wasm)) throw new Error('Compile first: npm run circuit:compile');
  const { prepared: alreadyPrepared } = await readPhase1(files.phase1);
  const prepared = await preparePhase1(files.phase1, layout.work, { alreadyPrepared, pinned, log });
  let circuitHash: Uint8Array | number = -1;
  await replace(files.zkey, async (t) => (circuitHash = await zKey.newZKey(files.r1cs, prepared.file, t, log)));
  if (typeof circuitHash === 'number') throw new Error('snarkjs refused to start phase 2');
  record(layout, { phase: 2, kind: 'start', name: `groth16 setup of ${path.basename(files.r1cs)}`, hash: hex(circuitHash) }, 2);
  await exportKey(layout);
  return prepared.sha256;
}

export async function contributePhase2(layout: SetupLayout, name: string, log?: Logger): Promise<void> {
  checkName(name);
  const { zkey } = setupFiles(layout);
  let hash: Uint8Array = new Uint8Array();
  await replace(zkey, async (t) => (hash = await zKey.contribute(zkey, t, name, entropy(), log)));
  record(layout, { phase: 2, kind: 'contribution', name, hash: hex(hash) });
  await exportKey(layout);
}

export async function beaconPhase2(layout: SetupLayout, beacon: Beacon, log?: Logger): Promise<void> {
  const { zkey } = setupFiles(layout);
  const name = `beacon: ${beacon.source}`;
  let hash: Uint8Array = new Uint8Array();
  await replace(
    zkey,
    async (t) => (hash = (await zKey.beacon(zkey, t, name, beacon.value, beacon.iterationsExp, log)) || new Uint8Array()),
  );
  record(layout, { phase: 2, kind: 'beacon', name, hash: hex(hash), beacon });
  await exportKey(layout);
}

async function exportKey(layout: SetupLayout): Promise<void> {
  const { zkey, vkey } = setupFiles(layout);
  const text = `${JSON.stringify(await zKey.exportVerificationKey(zkey), null, 2)}\n`;
  await replace(vkey, async (t) => writeFileSync(t, text));
}
