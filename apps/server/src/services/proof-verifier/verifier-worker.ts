import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { buildBn128 } from 'ffjavascript';
import { BatchVerifier, type Groth16Claim, type VerificationKey } from './batch-verify.ts';

/**
 * One worker of the proof verifier: its own single-threaded BN254 (WebAssembly), so snarkjs' thread
 * manager starts no threads of its own, and its own prepared keys.
 */
const { keyPaths } = workerData as { keyPaths: Record<string, string> };
const verifier = buildBn128(true).then(
  (curve) =>
    new BatchVerifier(curve, (depth) => {
      const file = keyPaths[depth];
      if (!file) throw new RangeError(`No verification key for depth ${depth}`);
      return JSON.parse(readFileSync(file, 'utf8')) as VerificationKey;
    }),
);

export default async function verifyBatch(claims: Groth16Claim[]): Promise<boolean[]> {
  return (await verifier).verify(claims);
}
