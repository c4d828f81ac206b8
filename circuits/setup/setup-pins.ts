import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileDigest } from './file-digest.ts';
import { setupFiles, type SetupLayout, type SetupPins } from './setup-files.ts';
import { readTranscript, setupState } from './transcript.ts';

/** The pins of the setup as it now is on disk: each file's SHA-256 and size, the prepared phase 1's hash, the state its transcript describes. */
export async function currentPins(layout: SetupLayout, preparedPhase1: string, publicHashes?: readonly string[]): Promise<SetupPins> {
  const f = setupFiles(layout);
  const files: SetupPins['files'] = {};
  for (const file of [f.phase1, f.r1cs, f.wasm, f.zkey, f.vkey].filter((p) => existsSync(p))) {
    files[path.basename(file)] = { sha256: await fileDigest(file), bytes: statSync(file).size };
  }
  return { files, preparedPhase1, state: setupState(readTranscript(layout.transcript), publicHashes) };
}
