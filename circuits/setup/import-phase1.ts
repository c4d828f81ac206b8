import { copyFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileDigest } from './file-digest.ts';
import { PUBLIC_PHASE1, PUBLIC_PHASE1_HASHES } from './public-phase1.ts';
import { startPhase2 } from './phase-steps.ts';
import { readPhase1 } from './read-contributions.ts';
import { setupFiles, type SetupLayout } from './setup-files.ts';
import { r1cs, type Logger } from './snarkjs-setup.ts';
import { writeTranscript, type TranscriptEntry } from './transcript.ts';

/**
 * Replaces phase 1 with a public ceremony's powers-of-tau file the operator brought (nothing is
 * downloaded) and starts phase 2 on it again. Refused unless
 * - `published` is a hash this build pins as a public ceremony's (`PUBLIC_PHASE1`: the Hermez files'
 *   from snarkjs's README), and the file's BLAKE2b-512 is that hash;
 * - snarkjs verifies its contribution chain;
 * - it is large enough for the circuit (snarkjs's own check when phase 2 starts).
 * The transcript then begins with the import and lists the file's own contributions, so `verify`
 * holds them against the file like any other. Returns the prepared phase 1's SHA-256, to pin.
 */
export async function importPhase1(
  layout: SetupLayout,
  source: string,
  published: string,
  log?: Logger,
  publicHashes: readonly string[] = PUBLIC_PHASE1_HASHES,
): Promise<string> {
  const expected = published.toLowerCase();
  if (!/^[0-9a-f]{128}$/.test(expected)) throw new Error('The published hash is a BLAKE2b-512: 128 hex digits');
  if (!publicHashes.includes(expected)) {
    throw new Error(
      `${expected.slice(0, 16)}… is not the published hash of a public phase 1 this build knows (${Object.keys(PUBLIC_PHASE1).join(', ')}): ` +
        "a file of one's own is not a public ceremony",
    );
  }
  const actual = await fileDigest(source, 'blake2b512');
  if (actual !== expected) throw new Error(`${path.basename(source)} has BLAKE2b-512 ${actual}, not the published ${expected}`);
  const chain = await readPhase1(source, log);
  if (!chain.valid) throw new Error(`${path.basename(source)} does not verify: its contributions do not follow one another`);
  const files = setupFiles(layout);
  // snarkjs's rule for a Groth16 phase 2: the domain holds every constraint and public signal, plus one.
  const { nConstraints, nPubInputs, nOutputs } = await r1cs.info(files.r1cs);
  const needed = Math.floor(Math.log2(nConstraints + nPubInputs + nOutputs)) + 1;
  if (chain.power < needed) {
    throw new Error(
      `${path.basename(source)} is 2^${chain.power}, too small for the circuit: ${nConstraints} constraints need 2^${needed}`,
    );
  }

  mkdirSync(layout.artifacts, { recursive: true });
  const temporary = `${files.phase1}.${process.pid}.tmp`;
  copyFileSync(source, temporary);
  // The copy is what the rest relies on: checked again, then put in place.
  if ((await fileDigest(temporary, 'blake2b512')) !== expected) {
    rmSync(temporary, { force: true });
    throw new Error(`${path.basename(source)} changed while it was copied`);
  }
  renameSync(temporary, files.phase1);
  rmSync(files.zkey, { force: true });
  rmSync(files.vkey, { force: true });
  const date = new Date().toISOString();
  writeTranscript(layout.transcript, [
    { phase: 1, kind: 'import', name: path.basename(source), blake2b: expected, date },
    ...chain.contributions.map((c): TranscriptEntry => ({
      phase: 1,
      kind: c.beacon ? 'beacon' : 'contribution',
      name: c.name,
      hash: c.hash,
      ...(c.beacon ? { beacon: { ...c.beacon, source: `recorded in ${path.basename(source)}` } } : {}),
      date,
    })),
  ]);
  return startPhase2(layout, log);
}
