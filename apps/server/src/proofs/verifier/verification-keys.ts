import type { Artifacts } from '../artifacts.ts';

/** Depth → path of the checksummed Groth16 verification key (`semaphore-<depth>.json`) for every depth we serve. */
export function verificationKeyPaths(artifacts: Artifacts): Record<number, string> {
  const paths: Record<number, string> = {};
  for (let depth = 1; depth <= 32; depth++) {
    const key = artifacts.get(`semaphore-${depth}.json`);
    if (key) paths[depth] = key.path;
  }
  return paths;
}
