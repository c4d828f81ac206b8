import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileCircom } from './compile-circom.ts';
import { fileDigest } from './file-digest.ts';
import { preparePhase1 } from './prepare-phase1.ts';
import { hasUnprintable } from './printable-name.ts';
import { PUBLIC_PHASE1_HASHES } from './public-phase1.ts';
import { readPhase1, readPhase2, type FileContribution } from './read-contributions.ts';
import { setupFiles, type SetupLayout, type SetupPins } from './setup-files.ts';
import { zKey, type Logger } from './snarkjs-setup.ts';
import { matchTranscript, readTranscript, setupState, type SetupState } from './transcript.ts';

/** What a verified setup is, and phase 1's BLAKE2b-512 for the operator to hold against the one its ceremony published. */
export type VerifiedSetup = SetupState & { phase1Blake2b: string };

/**
 * Checks that a setup is what it claims, link by link, and throws at the first link that is not:
 * 1. every file has the SHA-256 the code pins (`pins.files`);
 * 2. the R1CS and witness generator are byte for byte what the circom source compiles to (compiled
 *    again into a temporary directory);
 * 3. phase 1 verifies with snarkjs and carries exactly the transcript's phase-1 contributions;
 * 4. phase 1 prepared for phase 2 has the pinned hash (never a cached file taken on trust);
 * 5. the proving key verifies against this R1CS and that prepared phase 1, starts from the circuit
 *    hash the transcript records and carries exactly its phase-2 contributions;
 * 6. the verification key is the proving key's;
 * 7. the state the transcript describes is the one the code pins (what the server reports); phase 1
 *    is `public` only for a file whose BLAKE2b-512 the build pins as a public ceremony's
 *    (`publicHashes`).
 * Every file is first copied into a directory of this process's own (mode 0700), and only the copies
 * are hashed and read: a file swapped in the setup's folders while this runs is never the one read.
 */
export async function verifySetup(
  layout: SetupLayout,
  pins: SetupPins,
  log?: Logger,
  publicHashes: readonly string[] = PUBLIC_PHASE1_HASHES,
): Promise<VerifiedSetup> {
  const privateDir = mkdtempSync(path.join(tmpdir(), 'zeroid-verify-setup-'));
  try {
    const copied: SetupLayout = { ...layout, artifacts: path.join(privateDir, 'artifacts'), work: path.join(privateDir, 'work') };
    mkdirSync(copied.artifacts);
    mkdirSync(copied.work);
    const from = setupFiles(layout);
    const to = setupFiles(copied);
    for (const key of ['phase1', 'r1cs', 'wasm', 'zkey', 'vkey'] as const) {
      const pin = pins.files[path.basename(from[key])];
      if (!pin) throw new Error(`No SHA-256 is pinned in code for ${path.basename(from[key])}`);
      copyFileSync(from[key], to[key]);
    }
    return await verifyCopies(layout, copied, pins, log, publicHashes);
  } finally {
    rmSync(privateDir, { recursive: true, force: true });
  }
}

/** `copied`: the private copies of the artifacts; `layout`: where the source, the transcript and the phase-1 cache are. */
async function verifyCopies(
  layout: SetupLayout,
  copied: SetupLayout,
  pins: SetupPins,
  log: Logger | undefined,
  publicHashes: readonly string[],
): Promise<VerifiedSetup> {
  const files = setupFiles(copied);
  for (const file of [files.phase1, files.r1cs, files.wasm, files.zkey, files.vkey]) {
    const name = path.basename(file);
    const pin = pins.files[name]!;
    const actual = await fileDigest(file);
    if (actual !== pin.sha256 || statSync(file).size !== pin.bytes) {
      throw new Error(`${name} has SHA-256 ${actual}, but the code pins ${pin.sha256}`);
    }
  }

  const compiled = mkdtempSync(path.join(copied.work, 'compile-'));
  const fresh = await compileCircom(layout.circuit, compiled);
  for (const [ours, theirs] of [
    [files.r1cs, fresh.r1cs],
    [files.wasm, fresh.wasm],
  ] as const) {
    if (!readFileSync(ours).equals(readFileSync(theirs))) {
      throw new Error(`${path.basename(ours)} is not what ${path.basename(layout.circuit)} compiles to`);
    }
  }

  const transcript = readTranscript(layout.transcript);
  const phase1 = await readPhase1(files.phase1, log);
  if (!phase1.valid) throw new Error('phase1.ptau does not verify: its contributions do not follow one another');
  refuseUnprintableNames(phase1.contributions, 'phase1.ptau');
  matchTranscript(1, transcript, phase1.contributions, 'phase1.ptau');

  // The cache lives with the setup; what is read is a private copy of it, hashed after the copy.
  const prepared = await preparePhase1(files.phase1, layout.work, { pinned: pins.preparedPhase1, log, privateDir: copied.work });

  const phase2 = await readPhase2(files.r1cs, prepared.file, files.zkey, log);
  if (!phase2.valid) {
    throw new Error(
      `${path.basename(files.zkey)} is not a phase 2 of this R1CS on this phase 1 (${phase2.errors.join('; ') || 'snarkjs refused it'})`,
    );
  }
  refuseUnprintableNames(phase2.contributions, path.basename(files.zkey));
  const start = transcript.filter((e) => e.phase === 2);
  if (start[0]?.kind !== 'start' || start[0].hash !== phase2.circuitHash) {
    throw new Error(`transcript.json does not begin phase 2 with the circuit hash ${path.basename(files.zkey)} records`);
  }
  matchTranscript(2, transcript, phase2.contributions, path.basename(files.zkey));

  const vkey = `${JSON.stringify(await zKey.exportVerificationKey(files.zkey), null, 2)}\n`;
  if (vkey !== readFileSync(files.vkey, 'utf8'))
    throw new Error(`${path.basename(files.vkey)} is not the key of ${path.basename(files.zkey)}`);

  const phase1Blake2b = await fileDigest(files.phase1, 'blake2b512');
  const state = setupState(transcript, publicHashes);
  const first = transcript[0];
  if (first?.phase !== 1 || (first.kind !== 'start' && first.kind !== 'import')) {
    throw new Error('transcript.json does not begin with the start or the import of phase 1');
  }
  if (first.kind === 'import' && phase1Blake2b !== first.blake2b) {
    throw new Error('phase1.ptau is not the public file transcript.json records (BLAKE2b-512 differs)');
  }
  if (JSON.stringify(state) !== JSON.stringify(pins.state)) {
    throw new Error(`The transcript describes the setup as ${JSON.stringify(state)}, the code pins ${JSON.stringify(pins.state)}`);
  }
  return { ...state, phase1Blake2b };
}

/**
 * A name with a line break or another control character can hide a contribution from the reading of
 * snarkjs's report (a header split over two lines), and no honest contributor needs one.
 */
function refuseUnprintableNames(contributions: FileContribution[], fileName: string): void {
  const unprintable = contributions.find((c) => hasUnprintable(c.name));
  if (unprintable)
    throw new Error(`${fileName} holds a contribution whose name has a control character: ${JSON.stringify(unprintable.name)}`);
}
