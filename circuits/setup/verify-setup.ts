import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { compileCircom } from './compile-circom.ts';
import { fileDigest } from './file-digest.ts';
import { preparePhase1 } from './prepare-phase1.ts';
import { readPhase1, readPhase2 } from './read-contributions.ts';
import { setupFiles, type SetupLayout, type SetupPins } from './setup-files.ts';
import { zKey, type Logger } from './snarkjs-setup.ts';
import { matchTranscript, readTranscript, setupState, type SetupState } from './transcript.ts';

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
 * 7. the state the transcript describes is the one the code pins (what the server reports).
 * Returns that state.
 */
export async function verifySetup(layout: SetupLayout, pins: SetupPins, log?: Logger): Promise<SetupState> {
  const files = setupFiles(layout);
  for (const file of [files.phase1, files.r1cs, files.wasm, files.zkey, files.vkey]) {
    const name = path.basename(file);
    const pin = pins.files[name];
    if (!pin) throw new Error(`No SHA-256 is pinned in code for ${name}`);
    const actual = await fileDigest(file);
    if (actual !== pin.sha256 || statSync(file).size !== pin.bytes) {
      throw new Error(`${name} has SHA-256 ${actual}, but the code pins ${pin.sha256}`);
    }
  }

  const compiled = mkdtempSync(path.join(layout.work, 'compile-'));
  try {
    const fresh = await compileCircom(layout.circuit, compiled);
    for (const [ours, theirs] of [
      [files.r1cs, fresh.r1cs],
      [files.wasm, fresh.wasm],
    ] as const) {
      if (!readFileSync(ours).equals(readFileSync(theirs))) {
        throw new Error(`${path.basename(ours)} is not what ${path.basename(layout.circuit)} compiles to`);
      }
    }
  } finally {
    rmSync(compiled, { recursive: true, force: true });
  }

  const transcript = readTranscript(layout.transcript);
  const phase1 = await readPhase1(files.phase1, log);
  if (!phase1.valid) throw new Error('phase1.ptau does not verify: its contributions do not follow one another');
  matchTranscript(1, transcript, phase1.contributions, 'phase1.ptau');

  const prepared = await preparePhase1(files.phase1, layout.work, { pinned: pins.preparedPhase1, log });

  const phase2 = await readPhase2(files.r1cs, prepared.file, files.zkey, log);
  if (!phase2.valid) {
    throw new Error(
      `${path.basename(files.zkey)} is not a phase 2 of this R1CS on this phase 1 (${phase2.errors.join('; ') || 'snarkjs refused it'})`,
    );
  }
  const start = transcript.filter((e) => e.phase === 2);
  if (start[0]?.kind !== 'start' || start[0].hash !== phase2.circuitHash) {
    throw new Error(`transcript.json does not begin phase 2 with the circuit hash ${path.basename(files.zkey)} records`);
  }
  matchTranscript(2, transcript, phase2.contributions, path.basename(files.zkey));

  const vkey = `${JSON.stringify(await zKey.exportVerificationKey(files.zkey), null, 2)}\n`;
  if (vkey !== readFileSync(files.vkey, 'utf8'))
    throw new Error(`${path.basename(files.vkey)} is not the key of ${path.basename(files.zkey)}`);

  const state = setupState(transcript);
  const first = transcript[0];
  if (first?.phase !== 1 || (first.kind !== 'start' && first.kind !== 'import')) {
    throw new Error('transcript.json does not begin with the start or the import of phase 1');
  }
  if (first.kind === 'import' && (await fileDigest(files.phase1, 'blake2b512')) !== first.blake2b) {
    throw new Error('phase1.ptau is not the public file transcript.json records (BLAKE2b-512 differs)');
  }
  if (JSON.stringify(state) !== JSON.stringify(pins.state)) {
    throw new Error(`The transcript describes the setup as ${JSON.stringify(state)}, the code pins ${JSON.stringify(pins.state)}`);
  }
  return state;
}
